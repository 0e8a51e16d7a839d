// `npm run demo`: creates and migrates the database, seeds the demo chain (idempotent), starts the service,
// and prints the keys, codes, sample CPFs and a check-in story as ready-to-paste curl commands.
import { createServer } from 'node:http';
import { DataSource } from 'typeorm';
import { KeyVault } from '../common/crypto/key-vault';
import { loadConfig, setEnvDefaults } from '../config/app-config';
import { bootstrap, exitOnStartFailure } from '../main';
import { DEMO_PASSWORD, DemoData, seedDemo } from './demo-seed';

const RECEIVER_PORT = 4000;

/** A local webhook receiver that prints what it gets, so a subscription made by hand can be watched. */
function startReceiver(): void {
  createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      console.log(
        `\n[webhook receiver] ${req.method} ${req.url}\n  webhook-id: ${req.headers['webhook-id']}\n` +
          `  webhook-timestamp: ${req.headers['webhook-timestamp']}\n  webhook-signature: ${req.headers['webhook-signature']}\n  ${body}`,
      );
      res.writeHead(200).end('ok');
    });
  })
    .on('error', (error) => console.warn(`Demo webhook receiver not started: ${error.message}`))
    .listen(RECEIVER_PORT, '127.0.0.1');
}

/** Two GOLD beneficiaries without a visit in the recent window, so that the story works on every run. */
async function pickFreshBeneficiaries(
  dataSource: DataSource,
  demo: DemoData,
  windowSeconds: number,
): Promise<[string, string]> {
  const gold = demo.beneficiaries.filter((b) => b.active && b.benefitPlan === 'GOLD').map((b) => b.cpf);
  const recent: { cpf: string }[] = await dataSource.query(
    `SELECT DISTINCT b.cpf FROM visits v JOIN beneficiaries b ON b.id = v.beneficiary_id
     WHERE b.cpf IN (?) AND v.created_at > ?`,
    [gold, new Date(Date.now() - windowSeconds * 1000)],
  );
  const used = new Set(recent.map((r) => r.cpf));
  const fresh = gold.filter((cpf) => !used.has(cpf));
  return [fresh[0] ?? gold[0], fresh[1] ?? gold[1]];
}

function story(base: string, demo: DemoData, [cpf, webhookCpf]: [string, string]): string {
  const [paulista, pinheiros] = demo.places;
  const inactive = demo.beneficiaries.find((b) => !b.active);
  const basic = demo.beneficiaries.find((b) => b.active && b.benefitPlan === 'BASIC');
  const person = demo.beneficiaries.find((b) => b.cpf === cpf);
  const json = `-H 'content-type: application/json'`;
  const key = (place: { apiKey: string }) => `-H 'x-api-key: ${place.apiKey}'`;
  return `
================================================================================
 Gym integration service (demo) at ${base}
 Swagger UI: ${base}/docs   OpenAPI: ${base}/docs-json   Queue dashboard: ${base}/admin/queues
 Console: ${base}/console/   (sign in with one of the console accounts printed below)
================================================================================
Partner "${demo.partnerName}"   partner_api_key: ${demo.partnerApiKey}
${demo.places
  .map(
    (p) =>
      `Place "${p.name}"  code ${p.code}  place_api_key: ${p.apiKey}\n   plans: ${p.plans
        .map((plan) => `${plan.code} (${plan.name}, tier ${plan.tier})`)
        .join(', ')}`,
  )
  .join('\n')}
Benefit plans: BASIC (tier 1, 8 visits/month), SILVER (tier 2, 12/month), GOLD (tier 3, unlimited)
Sample beneficiaries:
${demo.beneficiaries
  .slice(0, 6)
  .map((b) => `   CPF ${b.cpf}  code ${b.code}  ${b.name}  ${b.benefitPlan}`)
  .join('\n')}
   CPF ${inactive?.cpf}  code ${inactive?.code}  ${inactive?.name}  (inactive)

A check-in story (${person?.name}, CPF ${cpf}, at ${pinheiros.name}):

# 1. Validate: eligible -> 204, nothing consumed
curl -i -X POST ${base}/v1/track_usages/validate ${key(pinheiros)} ${json} \\
  -d '{"type":"cpf","identifier":"${cpf}","service_provider_code":"${pinheiros.code}"}'

# 2. Register the visit -> 204
curl -i -X POST ${base}/v1/track_usages ${key(pinheiros)} ${json} \\
  -d '{"data":{"type":"track_usage","attributes":{"type":"cpf","identifier":"${cpf}","service_provider_code":"${pinheiros.code}"}}}'

# 3. The same again -> 422 already_used
curl -i -X POST ${base}/v1/track_usages ${key(pinheiros)} ${json} \\
  -d '{"data":{"type":"track_usage","attributes":{"type":"cpf","identifier":"${cpf}","service_provider_code":"${pinheiros.code}"}}}'

# 4. At the other gym within 90 minutes -> 422 already_used_other_gym
curl -i -X POST ${base}/v1/track_usages/validate ${key(paulista)} ${json} \\
  -d '{"type":"cpf","identifier":"${cpf}","service_provider_code":"${paulista.code}","service_provider_plan_code":"${paulista.plans[0].code}"}'

# 5. A gym with two plans needs the plan code -> 422 gym_with_more_than_one_plan
curl -i -X POST ${base}/v1/track_usages/validate ${key(paulista)} ${json} \\
  -d '{"type":"cpf","identifier":"${basic?.cpf}","service_provider_code":"${paulista.code}"}'

# 6. A BASIC benefit plan at the premium plan -> 422 plan_not_allowed
curl -i -X POST ${base}/v1/track_usages/validate ${key(paulista)} ${json} \\
  -d '{"type":"cpf","identifier":"${basic?.cpf}","service_provider_code":"${paulista.code}","service_provider_plan_code":"${paulista.plans[1].code}"}'

# 7. An inactive beneficiary -> 422 inactive_employee
curl -i -X POST ${base}/v1/track_usages/validate ${key(pinheiros)} ${json} \\
  -d '{"type":"cpf","identifier":"${inactive?.cpf}"}'

# 8. The beneficiary's code -> 200
curl -s -X POST ${base}/v1/track_usages/beneficiaries/code ${key(pinheiros)} ${json} \\
  -d '{"type":"cpf","identifier":"${cpf}"}'

# 9. App validation -> 200 employee_data + app_data
curl -s -X POST ${base}/partner_app/v1/validate ${key(pinheiros)} ${json} \\
  -d '{"employee_document_number":"${cpf}"}'

# 10. A bearer token, then the gym's plans
TOKEN=$(curl -s -X POST ${base}/partner/auth ${json} \\
  -d '{"place_api_key":"${paulista.apiKey}","partner_api_key":"${demo.partnerApiKey}"}' | node -pe 'JSON.parse(require("fs").readFileSync(0)).token')
curl -s ${base}/partner/plans -H "Authorization: Bearer $TOKEN"

# 11. Webhooks: subscribe the demo receiver (it prints what it gets below), then check in at ${paulista.name}
#     (on a later run the subscription exists: create answers invalid_parameter, PUT /partner/webhook/update changes it)
curl -s -X POST ${base}/partner/webhook/create -H "Authorization: Bearer $TOKEN" ${json} \\
  -d '{"webhook_url":"http://127.0.0.1:${RECEIVER_PORT}/webhooks","webhook_type":"CHECKIN"}'
curl -i -X POST ${base}/v1/track_usages ${key(paulista)} ${json} \\
  -d '{"data":{"type":"track_usage","attributes":{"type":"cpf","identifier":"${webhookCpf}","service_provider_code":"${paulista.code}","service_provider_plan_code":"${paulista.plans[0].code}"}}}'
curl -s ${base}/partner/webhook/deliveries -H "Authorization: Bearer $TOKEN"

${consoleStory(base, demo)}
Stop with Ctrl-C. Run it again any time: the data and keys stay the same.
`;
}

/** The console accounts and a session story with curl and a cookie jar. */
function consoleStory(base: string, demo: DemoData): string {
  const [paulista, pinheiros] = demo.places;
  const json = `-H 'content-type: application/json'`;
  const jar = (role: string) => `/tmp/gis-${role}.jar`;
  const signIn = (role: string, email: string) =>
    `curl -s -c ${jar(role)} -X POST ${base}/account/session ${json} \\\n  -d '{"email":"${email}","password":"${DEMO_PASSWORD}"}'`;
  const csrf = (role: string) =>
    `$(curl -s -b ${jar(role)} ${base}/account/session | node -pe 'JSON.parse(require("fs").readFileSync(0)).csrf_token')`;
  const [operator, support, gym] = demo.accounts;
  return `Console at ${base}/console/ — accounts (password of each: ${DEMO_PASSWORD}); Swagger's "session" scheme documents the cookie:
${demo.accounts.map((a) => `   ${a.role.padEnd(8)} ${a.email}  ${a.name}`).join('\n')}

# 12. Sign in as the operator (the session is the gis_session cookie in the jar), read the session and the places
${signIn('operator', operator.email)}
curl -s -b ${jar('operator')} ${base}/admin/places
# A change without the session's CSRF token -> 403 forbidden; with it -> 200
curl -s -b ${jar('operator')} -X PATCH ${base}/admin/places/${paulista.id} ${json} -d '{"name":"${paulista.name}"}'
curl -s -b ${jar('operator')} -X PATCH ${base}/admin/places/${paulista.id} ${json} -H "X-CSRF-Token: ${csrf('operator')}" \\
  -d '{"name":"${paulista.name}"}'

# 13. Support reads with keys masked, and may not rotate a key -> 403 forbidden
${signIn('support', support.email)}
curl -s -b ${jar('support')} ${base}/admin/places/${paulista.id}
curl -s -b ${jar('support')} -X POST ${base}/admin/places/${paulista.id}/api-key -H "X-CSRF-Token: ${csrf('support')}"

# 14. The gym account sees only ${pinheiros.name}: its key masked, revealed on request; another place is 404
${signIn('gym', gym.email)}
curl -s -b ${jar('gym')} ${base}/admin/places
curl -s -b ${jar('gym')} -X POST ${base}/admin/places/${pinheiros.id}/keys/reveal -H "X-CSRF-Token: ${csrf('gym')}"
curl -s -b ${jar('gym')} ${base}/admin/places/${paulista.id}

# 15. Who did what: the audit log (operators only), and sign out
curl -s -b ${jar('operator')} '${base}/admin/audit?page_size=10'
curl -s -b ${jar('operator')} -X DELETE ${base}/account/session -H "X-CSRF-Token: ${csrf('operator')}" -o /dev/null -w '%{http_code}\\n'

A new operator outside the demo: npm run account:create-operator -- --email you@example.com --name "Your Name"
`;
}

async function main(): Promise<void> {
  setEnvDefaults({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', LOG_LEVEL: 'warn' });
  const config = loadConfig();
  const app = await bootstrap(config);
  const dataSource = app.get(DataSource);
  const demo = await seedDemo(dataSource, app.get(KeyVault));
  const cpfs = await pickFreshBeneficiaries(dataSource, demo, config.recentCheckinWindowSeconds);
  startReceiver();
  console.log(story(`http://127.0.0.1:${config.port}`, demo, cpfs));
}

main().catch(exitOnStartFailure);
