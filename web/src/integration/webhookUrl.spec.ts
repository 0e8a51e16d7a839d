import { urlProblem } from './webhookUrl';

describe('urlProblem', () => {
  it('names what is wrong with a receiver URL, in a message key of the console', () => {
    expect(urlProblem('')).toBe('app.webhook.url_required');
    expect(urlProblem('erp.example.com/hooks')).toBe('app.webhook.url_not_absolute');
    expect(urlProblem('ftp://erp.example.com/hooks')).toBe('app.webhook.url_scheme');
    expect(urlProblem('https://ana:secret@erp.example.com/hooks')).toBe('app.webhook.url_user_info');
    expect(urlProblem(`https://erp.example.com/${'a'.repeat(2048)}`)).toBe('app.webhook.url_too_long');
  });

  it('leaves https and http addresses to the service, which knows whether http is allowed', () => {
    expect(urlProblem(' https://erp.example.com/hooks ')).toBeNull();
    expect(urlProblem('http://127.0.0.1:8080/hooks')).toBeNull();
  });
});
