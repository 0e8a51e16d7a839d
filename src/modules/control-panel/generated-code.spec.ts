import { DomainError } from '../../common/errors/domain-error';
import { CodeTakenError } from '../../database/unique-insert';
import { withCode } from './generated-code';

const taken = 'field.codeTakenByPlace';

describe('withCode', () => {
  it('uses the given code', async () => {
    const insert = jest.fn(async (code: string) => code);
    await expect(withCode('ABCD1234', insert, taken)).resolves.toBe('ABCD1234');
    expect(insert).toHaveBeenCalledTimes(1);
  });

  it('refuses a given code that is taken, without retrying', async () => {
    const insert = jest.fn(async (code: string): Promise<string> => {
      throw new CodeTakenError(code);
    });
    const refusal = withCode('ABCD1234', insert, taken);
    await expect(refusal).rejects.toBeInstanceOf(DomainError);
    await expect(refusal).rejects.toMatchObject({
      label: 'invalid_parameter',
      message: 'code ABCD1234 is already taken by another place',
    });
    expect(insert).toHaveBeenCalledTimes(1);
  });

  it('generates a new code while a generated one collides', async () => {
    const tried: string[] = [];
    const insert = jest.fn(async (code: string) => {
      tried.push(code);
      if (tried.length < 3) throw new CodeTakenError(code);
      return code;
    });
    const code = await withCode(undefined, insert, taken);
    expect(tried).toHaveLength(3);
    expect(code).toBe(tried[2]);
    tried.forEach((each) => expect(each).toMatch(/^[A-Z0-9]{8}$/));
  });

  it('gives up after five collisions, and lets other errors through at once', async () => {
    const colliding = jest.fn(async (code: string): Promise<string> => {
      throw new CodeTakenError(code);
    });
    await expect(withCode(null, colliding, taken)).rejects.toBeInstanceOf(CodeTakenError);
    expect(colliding).toHaveBeenCalledTimes(5);
    const failing = jest.fn(async (): Promise<string> => {
      throw new Error('connection lost');
    });
    await expect(withCode(undefined, failing, taken)).rejects.toThrow('connection lost');
    expect(failing).toHaveBeenCalledTimes(1);
  });
});
