import { parseBeneficiaryCsv } from './csv';

describe('parseBeneficiaryCsv', () => {
  it('maps English or Portuguese headers, commas or semicolons, and yes/no words', () => {
    const parsed = parseBeneficiaryCsv(
      '\uFEFFcpf;Nome;plano;ativo;código\n111.444.777-35;Joana Lima;GOLD;sim;eq2b3fbk\n529.982.247-25;Pedro;SILVER;não;\n',
    );
    expect(parsed.missingColumns).toEqual([]);
    expect(parsed.rows).toEqual([
      {
        line: 2,
        body: {
          cpf: '111.444.777-35',
          name: 'Joana Lima',
          benefit_plan_code: 'GOLD',
          active: true,
          code: 'EQ2B3FBK',
        },
      },
      { line: 3, body: { cpf: '529.982.247-25', name: 'Pedro', benefit_plan_code: 'SILVER', active: false } },
    ]);
  });

  it('leaves empty cells out, so an update keeps the stored value', () => {
    const parsed = parseBeneficiaryCsv('cpf,name,email\n11144477735,,\n');
    expect(parsed.rows[0].body).toEqual({ cpf: '11144477735' });
  });

  it('passes a word it does not know to the service, which refuses the row and says why', () => {
    const parsed = parseBeneficiaryCsv('cpf,active\n11144477735,talvez\n');
    expect(parsed.rows[0].body.active).toBe('talvez');
  });

  it('names a missing cpf column and the columns it ignores', () => {
    const parsed = parseBeneficiaryCsv('name,color\nJoana,blue\n');
    expect(parsed.missingColumns).toEqual(['cpf']);
    expect(parsed.unknownColumns).toEqual(['color']);
  });
});
