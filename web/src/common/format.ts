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

/** A duration in seconds as people read it: 45 s, 21 min, 2 h 5 min, 3 d 4 h. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** The wall-clock hour of a time the service sent with its zone's offset (07:00), whatever the reader's zone. */
export function serviceHour(value: string): string {
  return value.slice(11, 16);
}

/** The day and month of a time the service sent with its zone's offset (22/11 or 11/22 by language). */
export function serviceDay(value: string, locale: string): string {
  const [year, month, day] = value.slice(0, 10).split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day, 12)).toLocaleDateString(locale, {
    day: '2-digit',
    month: '2-digit',
    timeZone: 'UTC',
  });
}
