// `npm run demo`: creates and migrates the database, seeds the demo chain (idempotent), starts the service,
// and prints the keys, codes, sample CPFs and a check-in story as ready-to-paste curl commands.
import { DataSource } from 'typeorm';
import { KeyVault } from '../src/common/crypto/key-vault';
import { AppConfig, demoReceiverPort, loadConfig, setEnvDefaults } from '../src/config/app-config';
import { bootstrap, exitOnStartFailure, portInUse } from '../src/main';
import { AppCheckIn, createAppCheckIn, startReceiver, subscribe, wellhubCheckIn } from './demo-app-check-in';
import { DEMO_PASSWORD, DemoData, seedDemo } from './demo-seed';

/** Five GOLD beneficiaries without a visit in the recent window, so that the story works on every run. */
async function pickFreshBeneficiaries(
  dataSource: DataSource,
  demo: DemoData,
  windowSeconds: number,
): Promise<string[]> {
  const gold = demo.beneficiaries.filter((b) => b.active && b.benefitPlan === 'GOLD').map((b) => b.cpf);
  const recent: { cpf: string }[] = await dataSource.query(
    `SELECT DISTINCT b.cpf FROM visits v JOIN beneficiaries b ON b.id = v.beneficiary_id
     WHERE b.cpf IN (?) AND v.created_at > ?`,
    [gold, new Date(Date.now() - windowSeconds * 1000)],
  );
  const used = new Set(recent.map((r) => r.cpf));
  const fresh = gold.filter((cpf) => !used.has(cpf));
  return [0, 1, 2, 3, 4].map((i) => fresh[i] ?? gold[i]);
}

interface Story {
  base: string;
  receiverPort: number;
  demo: DemoData;
  cpfs: string[];
  appCheckIn?: AppCheckIn;
  /** Whether the signed Wellhub-format `checkin` of the sandbox's check-in reached the receiver. */
  wellhubArrived?: boolean;
  config: AppConfig;
}

/** The Wellhub-compatible story: a gym system written for that platform, at Demo Fitness Pinheiros. */
function wellhubStory({ base, receiverPort, demo, cpfs, wellhubArrived }: Story): string {
  const pinheiros = demo.places[1];
  const member = demo.beneficiaries.find((b) => b.cpf === cpfs[4]);
  const json = `-H 'content-type: application/json'`;
  const auth = `-H 'Authorization: Bearer ${demo.partnerApiKey}'`;
  const gym = `-H 'X-Gym-Id: ${pinheiros.gymId}'`;
  const arrived = wellhubArrived
    ? 'The demo did steps 24 and 25 at start: the receiver printed the signed checkin above.'
    : 'The demo could not do steps 24 and 25 at start: run them, and watch the receiver.';
  return `
Software written for Wellhub (ex-Gympass) at ${pinheiros.name}: gym_id ${pinheiros.gymId}, product_id ${pinheiros.plans[0].productId}
(${pinheiros.plans[0].name}); the partner's key works as Wellhub's bearer token (a place's key too, or in X-Api-Key).
${member?.name}, member number (gympass_id) ${member?.memberNumber}. ${arrived}
The sandbox helper is on (ACCESS_SANDBOX=true). See docs/wellhub.md.

# 24. The gym's checkin webhook, in that platform's format, to the demo receiver (signed with its secret)
curl -i -X POST ${base}/v1/systems/gyms/${pinheiros.gymId}/webhooks ${auth} ${json} \\
  -d '{"webhooks":[{"event":"checkin","url":"http://127.0.0.1:${receiverPort}/wellhub","secret":"demo-wellhub-secret"}]}'

# 25. The member checks in in the app (the sandbox simulates it) -> 201 with the checkin event's body;
#     the receiver prints it with X-Gympass-Signature, checked as those clients check it
curl -s -X POST ${base}/helper/v1/gyms/${pinheiros.gymId}/simulate/checkins ${auth} ${json} \\
  -d '{"gympass_user_id":"${member?.memberNumber}"}'

# 26. The gym system validates it -> 200 {"metadata":{"total":1,"errors":0},"results":{...}}: the visit is recorded
curl -i -X POST ${base}/access/v1/validate ${auth} ${gym} ${json} \\
  -d '{"gympass_id":"${member?.memberNumber}"}'

# 27. The same again (an answer lost on the way) -> 400 checkin.already.validated: the same check-in, no second visit
curl -s -X POST ${base}/access/v1/validate ${auth} ${gym} ${json} \\
  -d '{"gympass_id":"${member?.memberNumber}"}'

# 28. Without a key -> 401 auth.unauthorized (a key that does not cover the gym: 403 {"Message": ...})
curl -s -X POST ${base}/access/v1/validate ${gym} ${json} -d '{"gympass_id":"${member?.memberNumber}"}'
`;
}

function appStory({ base, demo, cpfs, appCheckIn, config }: Story): string {
  const pinheiros = demo.places[1];
  const member = demo.beneficiaries.find((b) => b.cpf === cpfs[2]);
  const json = `-H 'content-type: application/json'`;
  const memberAuth = `-H 'Authorization: Bearer ${config.memberApiToken}'`;
  const endpoint = appCheckIn?.endpoint ?? '<the endpoint printed by the receiver above>';
  const created = appCheckIn
    ? `The platform's app backend made it at start (POST /member/v1/check_ins), token ${appCheckIn.token}, id
${appCheckIn.id}; the demo receiver printed its CHECK_IN_CREATED event above, with this endpoint.`
    : 'The demo could not make it at start: make one with step 17, and take the endpoint from the receiver.';
  return `
An app check-in (${member?.name}, CPF ${member?.cpf}, at ${pinheiros.name}, whose CHECKIN webhook the demo
pointed at its receiver). ${created}

# 12. The gym confirms it at its endpoint -> 200 "1": the visit is recorded (CHECK_IN_VALIDATED follows)
curl -i -X POST ${endpoint}

# 13. The same again -> 422 check_in_not_available (errors[0].source is an object on this route)
curl -i -X POST ${endpoint}

# 14. In Spanish and in English; Portuguese is the default (labels never change)
curl -s -X POST ${endpoint} -H 'Accept-Language: es'
curl -s -X POST ${endpoint} -H 'Accept-Language: en'

# 15. The check-in as the app backend sees it -> status validated
curl -s ${base}/member/v1/check_ins/${appCheckIn?.id ?? '<id>'} ${memberAuth}

# 16. At the desk instead: another member checks in in the app...
curl -s -X POST ${base}/member/v1/check_ins ${memberAuth} ${json} \\
  -d '{"type":"cpf","identifier":"${cpfs[3]}","service_provider_code":"${pinheiros.code}"}'
#     ...and the gym types the 6-digit "token" of that answer (also under /service or /api) -> 204
curl -i -X POST ${base}/service/v1/track_usages -H 'x-api-key: ${pinheiros.apiKey}' ${json} \\
  -d '{"data":{"type":"track_usage","attributes":{"type":"token","identifier":"<TOKEN>","service_provider_code":"${pinheiros.code}"}}}'

# 17. The member cancels a pending check-in -> 200 cancelled; again -> 422 check_in_not_available
curl -s -X DELETE ${base}/member/v1/check_ins/<ID> ${memberAuth}

# 18. A check-in left unconfirmed expires after CHECK_IN_CONFIRMATION_WINDOW_SECONDS (${config.checkInConfirmationWindowSeconds} s here;
#     start the demo with CHECK_IN_CONFIRMATION_WINDOW_SECONDS=30 to watch it): then -> 422 check_in_expired_alert

# 19. The place's member check-ins, as the control panel lists them
curl -s ${base}/admin/places/${pinheiros.id}/check-ins -H 'Authorization: Bearer ${config.adminApiToken}'
`;
}

function story({ base, receiverPort, demo, cpfs }: Story): string {
  const [cpf, webhookCpf] = cpfs;
  const [paulista, pinheiros] = demo.places;
  const inactive = demo.beneficiaries.find((b) => !b.active);
  const basic = demo.beneficiaries.find((b) => b.active && b.benefitPlan === 'BASIC');
  const person = demo.beneficiaries.find((b) => b.cpf === cpf);
  const json = `-H 'content-type: application/json'`;
  const key = (place: { apiKey: string }) => `-H 'x-api-key: ${place.apiKey}'`;
  return `
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
  -d '{"webhook_url":"http://127.0.0.1:${receiverPort}/webhooks","webhook_type":"CHECKIN"}'
curl -i -X POST ${base}/v1/track_usages ${key(paulista)} ${json} \\
  -d '{"data":{"type":"track_usage","attributes":{"type":"cpf","identifier":"${webhookCpf}","service_provider_code":"${paulista.code}","service_provider_plan_code":"${paulista.plans[0].code}"}}}'
curl -s ${base}/partner/webhook/deliveries -H "Authorization: Bearer $TOKEN"
`;
}

/** What a person needs first: where the console is, who to sign in as, and how to stop. */
function header({ base, receiverPort, demo, config }: Story): string {
  const everyInterface =
    config.host === '0.0.0.0'
      ? `\n Listening on every interface (HOST=0.0.0.0) with the demo's development secrets.`
      : '';
  return `
================================================================================
 Gym integration service (demo) at ${base}${everyInterface}
 Console:  ${base}/console/
${demo.accounts.map((a) => `   ${a.role.padEnd(8)} ${a.email.padEnd(24)} password ${DEMO_PASSWORD}`).join('\n')}
 Swagger UI: ${base}/docs   OpenAPI: ${base}/docs-json
 Queue dashboard: ${base}/admin/queues   user admin, password ${config.adminApiToken} (ADMIN_API_TOKEN),
   or the console's operator or support session
 Webhook receiver: http://127.0.0.1:${receiverPort}/webhooks (DEMO_RECEIVER_PORT); it prints what it receives
 Stop with Ctrl-C. Run it again any time: the data and keys stay the same.
================================================================================`;
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

# 20. Sign in as the operator (the session is the gis_session cookie in the jar), read the session and the places
${signIn('operator', operator.email)}
curl -s -b ${jar('operator')} ${base}/admin/places
# A change without the session's CSRF token -> 403 forbidden; with it -> 200
curl -s -b ${jar('operator')} -X PATCH ${base}/admin/places/${paulista.id} ${json} -d '{"name":"${paulista.name}"}'
curl -s -b ${jar('operator')} -X PATCH ${base}/admin/places/${paulista.id} ${json} -H "X-CSRF-Token: ${csrf('operator')}" \\
  -d '{"name":"${paulista.name}"}'

# 21. Support reads with keys masked, and may not rotate a key -> 403 forbidden
${signIn('support', support.email)}
curl -s -b ${jar('support')} ${base}/admin/places/${paulista.id}
curl -s -b ${jar('support')} -X POST ${base}/admin/places/${paulista.id}/api-key -H "X-CSRF-Token: ${csrf('support')}"

# 22. The gym account sees only ${pinheiros.name}: its key masked, revealed on request; another place is 404
${signIn('gym', gym.email)}
curl -s -b ${jar('gym')} ${base}/admin/places
curl -s -b ${jar('gym')} -X POST ${base}/admin/places/${pinheiros.id}/keys/reveal -H "X-CSRF-Token: ${csrf('gym')}"
curl -s -b ${jar('gym')} ${base}/admin/places/${paulista.id}

# 23. Who did what: the audit log (operators only), and sign out
curl -s -b ${jar('operator')} '${base}/admin/audit?page_size=10'
curl -s -b ${jar('operator')} -X DELETE ${base}/account/session -H "X-CSRF-Token: ${csrf('operator')}" -o /dev/null -w '%{http_code}\\n'

A new operator outside the demo: npm run account:create-operator -- --email you@example.com --name "Your Name"
`;
}

async function main(): Promise<void> {
  setEnvDefaults({
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    ACCESS_SANDBOX: 'true',
  });
  const config = loadConfig();
  // Started first, so that a busy port stops the demo before anything else runs.
  const receiverPort = demoReceiverPort(config);
  const { received } = await startReceiver(receiverPort).catch((error: unknown) => {
    throw portInUse(error, 'DEMO_RECEIVER_PORT', receiverPort);
  });
  const app = await bootstrap(config);
  const dataSource = app.get(DataSource);
  const demo = await seedDemo(dataSource, app.get(KeyVault));
  const cpfs = await pickFreshBeneficiaries(dataSource, demo, config.recentCheckinWindowSeconds);
  const base = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`;
  const told: Story = { base, receiverPort, demo, cpfs, config };
  console.log(header(told));
  const pinheiros = demo.places[1];
  await subscribe(
    base,
    { placeApiKey: pinheiros.apiKey, partnerApiKey: demo.partnerApiKey },
    `http://127.0.0.1:${receiverPort}/webhooks`,
  );
  told.appCheckIn = await createAppCheckIn(
    base,
    config.memberApiToken,
    { identifier: cpfs[2], service_provider_code: pinheiros.code },
    received,
  );
  const wellhubMember = demo.beneficiaries.find((b) => b.cpf === cpfs[4]);
  told.wellhubArrived =
    wellhubMember?.memberNumber !== undefined &&
    (await wellhubCheckIn(
      base,
      demo.partnerApiKey,
      pinheiros.gymId,
      `http://127.0.0.1:${receiverPort}/wellhub`,
      wellhubMember.memberNumber,
      received,
    ));
  console.log(`${story(told)}${appStory(told)}
${consoleStory(base, demo)}${wellhubStory(told)}
The service (${base}, PORT and HOST) and the webhook receiver (port ${receiverPort}, DEMO_RECEIVER_PORT) run
until you press Ctrl-C. The console: ${base}/console/ (password ${DEMO_PASSWORD}).
`);
}

main().catch(exitOnStartFailure);
