import { maskCpfsInText } from './logging.module';

describe('maskCpfsInText', () => {
  it('masks bare and punctuated CPFs', () => {
    expect(maskCpfsInText('/admin/beneficiaries/11144477735')).toBe('/admin/beneficiaries/111.***.***-35');
    expect(maskCpfsInText('/admin/beneficiaries/111.444.777-35')).toBe('/admin/beneficiaries/111.***.***-35');
  });

  it('leaves other paths alone', () => {
    expect(maskCpfsInText('/admin/places/3f2a/plans/B0KR5QWH')).toBe('/admin/places/3f2a/plans/B0KR5QWH');
  });
});
