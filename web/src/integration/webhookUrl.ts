/**
 * What is wrong with a receiver URL before the service is asked, in the reader's language: the service checks
 * the same (and whether it must be https, which depends on its settings) and says so when it refuses.
 */
export function urlProblem(value: string): string | null {
  const url = value.trim();
  if (!url) return 'app.webhook.url_required';
  if (url.length > 2048) return 'app.webhook.url_too_long';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'app.webhook.url_not_absolute';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'app.webhook.url_scheme';
  if (parsed.username || parsed.password) return 'app.webhook.url_user_info';
  return null;
}
