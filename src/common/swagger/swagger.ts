import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import {
  ADMIN_SECURITY,
  API_KEY_SECURITY,
  BEARER_SECURITY,
  SESSION_SECURITY,
} from '../../modules/auth/auth.decorators';
import { MEMBER_SECURITY } from '../../modules/auth/member-auth';
import { SESSION_COOKIE } from '../../modules/accounts/session-cookie';
import { buildErrorEnvelope } from '../errors/error-envelope';
import { aliasesOf } from '../http/base-path-aliases';
import { ErrorLabel } from '../errors/error-label';
import { LABEL_EXAMPLE_DETAILS } from './label-examples';

const DESCRIPTION = `
Connects a gym's own systems (turnstile, ERP, front desk, app) to the benefits platform.

* **Check-in** routes (\`/v1/track_usages*\`) and the **app** route (\`/partner_app/v1/validate\`) take the
  gym's key in the \`x-api-key\` header.
* **Administrative** routes (\`/partner/*\`) take \`Authorization: Bearer <ACCESS_TOKEN>\`, from
  \`POST /partner/auth\`; the token lives 24 hours.
* The **control panel** (\`/admin/*\`) takes \`Authorization: Bearer <ADMIN_API_TOKEN>\` (automation; acts as an
  operator) or the **console session** cookie \`${SESSION_COOKIE}\` from \`POST /account/session\`. A session acts
  within its account's role: \`operator\` every route; \`support\` every GET (CPFs and keys masked) and redelivery;
  \`gym\` the routes of its places' integration section (listed per route as \`x-roles\`), and for any place
  outside its scope the answer is 404 \`not_found\`. A POST, PUT, PATCH or DELETE made with a session must carry
  \`X-CSRF-Token: <csrf_token>\` (from the sign-in or \`GET /account/session\`) or an \`Origin\` equal to
  PUBLIC_BASE_URL, else 403 \`forbidden\`.
* Every change and key reveal is written to the audit log (\`GET /admin/audit\`) with who made it.
* The **member API** (\`/member/v1/check_ins\`) is for the platform's app backend: \`Authorization: Bearer
  <MEMBER_API_TOKEN>\`. A member's check-in made in the app is pending until the gym confirms it: at the
  \`endpoint\` of its \`CHECK_IN_CREATED\` webhook event (\`POST /api/v1/webhook_confirmations/{token}\`, no
  header), or with its 6-digit token as \`type: "token"\` on \`POST /v1/track_usages\`.

The check-in and app routes also answer under \`/service\` and \`/api\` (\`/service/v1/track_usages\`,
\`/api/partner_app/v1/validate\`, ...), the base paths that public clients of this contract build their URLs
from; each operation names its aliases (\`x-aliases\`).

Every non-2xx answer is the same envelope: \`{ "errors": [ { status, title, label, detail, source: [{label, message}] } ] }\`
(on the confirmation endpoint \`source\` is one object, as the platform this service mirrors sends it).
\`detail\` and \`message\` follow \`Accept-Language\` (pt-BR by default, es, en). Labels are API and never change
meaning; messages are for people.
`;

function example(status: number, label: ErrorLabel) {
  return { summary: label, value: buildErrorEnvelope(status, label, LABEL_EXAMPLE_DETAILS[label]) };
}

/** Adds the answers every route can give (malformed body, oversized body, unexpected error). */
function addCommonErrors(document: OpenAPIObject): void {
  const schema = { $ref: '#/components/schemas/ErrorEnvelopeDto' };
  for (const item of Object.values(document.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method];
      if (!operation) continue;
      if (operation.requestBody) {
        operation.responses['400'] ??= {
          description: 'Bad Request. Labels: `malformed_request` (body is not JSON or not an object)',
          content: {
            'application/json': {
              schema,
              examples: { malformed_request: example(400, 'malformed_request') },
            },
          },
        };
        operation.responses['413'] ??= {
          description: 'Payload Too Large. Labels: `payload_too_large`',
          content: {
            'application/json': {
              schema,
              examples: { payload_too_large: example(413, 'payload_too_large') },
            },
          },
        };
      }
      operation.responses['500'] ??= {
        description: 'Internal Server Error. Labels: `internal_error` (the detail carries the request id)',
        content: {
          'application/json': { schema, examples: { internal_error: example(500, 'internal_error') } },
        },
      };
      operation.responses['503'] ??= {
        description:
          'Service Unavailable. Labels: `service_unavailable` (the database cannot be reached; `Retry-After` says when to try again)',
        content: {
          'application/json': {
            schema,
            examples: { service_unavailable: example(503, 'service_unavailable') },
          },
        },
      };
    }
  }
}

/** Names the alias paths of the check-in and app operations (one handler answers them all). */
function addAliases(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths)) {
    const aliases = aliasesOf(path);
    if (aliases.length === 0) continue;
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method];
      if (!operation) continue;
      const named = aliases.map((alias) => `\`${alias}\``).join(' and ');
      operation.description = `${operation.description ?? ''}\n\nAlso answers at ${named}.`.trim();
      Object.assign(operation, { 'x-aliases': aliases });
    }
  }
}

/** Tags in the order an integrator meets them; the control panel, for people and automation, last. */
export const TAG_ORDER: [name: string, description: string][] = [
  ['Authentication', 'Exchange the place and partner keys for the bearer token of the administrative routes'],
  ['Check-in', 'Eligibility, visits and beneficiary codes, with the place key'],
  ['App', "Eligibility for a partner's app"],
  ['Plans', "The gym's plans"],
  ['Webhooks', 'Subscriptions to check-in events and their deliveries'],
  ['Member check-ins', "Check-ins made in the platform's app and their confirmation"],
  ['Health', 'Liveness of the service and what it depends on'],
  ['Console session', 'Sign-in of people to the console'],
  ['Control panel: overview', "The console's home pages: check-ins, deliveries and endpoints at a glance"],
  ['Control panel', 'Partners, places, plans, benefit plans, beneficiaries and visits'],
  ['Control panel: webhooks', "A place's webhooks and every gym's deliveries"],
  ['Accounts', 'Console accounts and their password links'],
  ['Audit', 'Who changed what'],
];

/** Orders the paths by the tag of their first operation, as TAG_ORDER lists them. */
function orderPaths(document: OpenAPIObject): void {
  const rank = (item: OpenAPIObject['paths'][string]): number => {
    const tag = Object.values(item).find((operation) => operation?.tags?.length)?.tags?.[0];
    const index = TAG_ORDER.findIndex(([name]) => name === tag);
    return index === -1 ? TAG_ORDER.length : index;
  };
  const entries = Object.entries(document.paths);
  entries.sort(([, a], [, b]) => rank(a) - rank(b));
  document.paths = Object.fromEntries(entries);
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Gym Integration API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0');
  for (const [name, description] of TAG_ORDER) builder.addTag(name, description);
  const config = builder
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'x-api-key', description: '<PLACE_API_KEY>' },
      API_KEY_SECURITY,
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'From POST /partner/auth' },
      BEARER_SECURITY,
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'ADMIN_API_TOKEN of the control panel' },
      ADMIN_SECURITY,
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: "MEMBER_API_TOKEN of the platform's app backend" },
      MEMBER_SECURITY,
    )
    .addCookieAuth(
      SESSION_COOKIE,
      {
        type: 'apiKey',
        in: 'cookie',
        name: SESSION_COOKIE,
        description:
          'Console session from POST /account/session (HttpOnly, SameSite=Lax). Changes need X-CSRF-Token.',
      },
      SESSION_SECURITY,
    )
    .build();
  const document = SwaggerModule.createDocument(app, config);
  addCommonErrors(document);
  addAliases(document);
  orderPaths(document);
  return document;
}

/** Swagger UI at `/docs`, the OpenAPI document at `/docs-json`. */
export function setupSwagger(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), { jsonDocumentUrl: 'docs-json' });
}
