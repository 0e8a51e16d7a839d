import Papa from 'papaparse';

/**
 * A beneficiaries CSV turned into the rows of POST /admin/beneficiaries/bulk. The browser only maps
 * columns and words; whether a row is good is the service's decision (its answer lists each refusal).
 */

export interface CsvRow {
  /** The row's number in the file, the header being row 1 (blank lines are not counted). */
  line: number;
  body: Record<string, unknown>;
}

export interface ParsedCsv {
  rows: CsvRow[];
  missingColumns: string[];
  unknownColumns: string[];
}

const COLUMNS: Record<string, string> = {
  cpf: 'cpf',
  name: 'name',
  nome: 'name',
  email: 'email',
  'e-mail': 'email',
  phone: 'phone',
  telefone: 'phone',
  birthday: 'birthday',
  nascimento: 'birthday',
  data_nascimento: 'birthday',
  benefit_plan_code: 'benefit_plan_code',
  plano: 'benefit_plan_code',
  active: 'active',
  ativo: 'active',
  code: 'code',
  codigo: 'code',
  código: 'code',
};

const REQUIRED = ['cpf'];

const TRUE = new Set(['true', '1', 'sim', 's', 'yes', 'y']);
const FALSE = new Set(['false', '0', 'não', 'nao', 'n', 'no']);

function activeValue(raw: string): unknown {
  const word = raw.trim().toLowerCase();
  if (TRUE.has(word)) return true;
  if (FALSE.has(word)) return false;
  return raw; // the service refuses it and says why
}

export function parseBeneficiaryCsv(text: string): ParsedCsv {
  const result = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  const [header = [], ...lines] = result.data;
  const fields = header.map((name) => COLUMNS[name.trim().toLowerCase()]);
  const unknownColumns = header
    .filter((_, index) => !fields[index])
    .map((name) => name.trim())
    .filter(Boolean);
  const missingColumns = REQUIRED.filter((column) => !fields.includes(column));
  let line = 1;
  const rows = lines.map((cells) => {
    line += 1;
    const body: Record<string, unknown> = {};
    cells.forEach((cell, index) => {
      const field = fields[index];
      const value = cell.trim();
      if (!field || value === '') return;
      body[field] = field === 'active' ? activeValue(value) : field === 'code' ? value.toUpperCase() : value;
    });
    return { line, body };
  });
  return { rows, missingColumns, unknownColumns };
}
