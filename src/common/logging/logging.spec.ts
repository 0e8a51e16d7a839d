import { QueryFailedError } from 'typeorm';
import { createLogger, maskCpfsInText, PinoLoggerService } from './logging.module';

describe('maskCpfsInText', () => {
  it('masks bare and punctuated CPFs', () => {
    expect(maskCpfsInText('/admin/beneficiaries/11144477735')).toBe('/admin/beneficiaries/111.***.***-35');
    expect(maskCpfsInText('/admin/beneficiaries/111.444.777-35')).toBe('/admin/beneficiaries/111.***.***-35');
  });

  it('leaves other paths alone', () => {
    expect(maskCpfsInText('/admin/places/3f2a/plans/B0KR5QWH')).toBe('/admin/places/3f2a/plans/B0KR5QWH');
  });
});

describe('PinoLoggerService', () => {
  function capture(level = 'info') {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger(level, { write: (line: string) => lines.push(JSON.parse(line)) });
    return { lines, service: new PinoLoggerService(logger) };
  }

  it('writes a message with the context Nest appends', () => {
    const { lines, service } = capture();
    service.log('Redis is back', 'WebhookRelay');
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, msg: 'Redis is back', context: 'WebhookRelay' }),
    ]);
  });

  it('merges an object first argument and takes the next string as the message', () => {
    const { lines, service } = capture();
    service.warn({ deliveryId: 'dlv_1' }, 'Attempt failed', 'WebhookDeliveryService');
    expect(lines[0]).toMatchObject({ level: 40, msg: 'Attempt failed', deliveryId: 'dlv_1' });
  });

  it('writes each line with its own fields only, outside a request too', () => {
    const { lines, service } = capture();
    service.warn({ deliveryId: 'dlv_1', statusCode: 500 }, 'Attempt failed', 'DeliveryRunner');
    service.warn({ subscriptionId: 'sub_1' }, 'Breaker open', 'DeliveryRunner');
    expect(lines[1]).not.toHaveProperty('deliveryId');
    expect(lines[1]).not.toHaveProperty('statusCode');
    expect(lines[1]).toMatchObject({ subscriptionId: 'sub_1', msg: 'Breaker open' });
  });

  it('keeps the stack Nest passes to error()', () => {
    const { lines, service } = capture();
    service.error('It broke', 'Error: It broke\n    at here', 'Exceptions');
    expect(lines[0]).toMatchObject({ level: 50, msg: 'It broke', stack: expect.stringContaining('at here') });
  });

  it('writes nothing below its level', () => {
    const { lines, service } = capture('info');
    service.debug('noise', 'Ctx');
    service.verbose('more noise', 'Ctx');
    expect(lines).toHaveLength(0);
  });

  it('drops the SQL and parameters of a database error, which carry CPFs', () => {
    const { lines, service } = capture();
    const error = new QueryFailedError(
      "INSERT INTO beneficiaries (cpf) VALUES ('11144477735')",
      ['11144477735'],
      Object.assign(new Error("Duplicate entry '11144477735' for key 'IDX_cpf'"), {
        sql: "... '11144477735' ...",
      }),
    );
    service.error({ err: error }, 'Bulk import chunk failed', 'Exceptions');
    expect(JSON.stringify(lines[0])).not.toContain('11144477735');
    expect(lines[0]).toMatchObject({ msg: 'Bulk import chunk failed', err: { type: 'QueryFailedError' } });
  });
});
