/** Dates and times as people of the chosen language read them. */
export function formatDateTime(value: string | null | undefined, locale: string): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleString(locale, { dateStyle: 'short', timeStyle: 'medium' });
}

export function formatDate(value: string | null | undefined, locale: string): string {
  if (!value) return '';
  const date = new Date(value.length === 10 ? `${value}T12:00:00` : value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleDateString(locale, { dateStyle: 'short' } as Intl.DateTimeFormatOptions);
}

/** 11144477735 → 111.444.777-35; masked or odd values are shown as they are. */
export function formatCpf(cpf: string | null | undefined): string {
  if (!cpf) return '';
  return /^\d{11}$/.test(cpf)
    ? `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`
    : cpf;
}

/** A key as people may see it on screen: its prefix and last four characters. */
export function maskKey(key: string | null | undefined): string {
  if (!key) return '';
  if (key.includes('…') || key.includes('*')) return key;
  const prefix = key.slice(0, key.indexOf('_') + 1);
  return `${prefix}${'•'.repeat(8)}${key.slice(-4)}`;
}
