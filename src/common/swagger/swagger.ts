import { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type {
  ResponseObject,
  ResponsesObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { buildErrorEnvelope } from '../errors/error-envelope';
import { aliasesOf } from '../http/base-path-aliases';
import { ErrorLabel, titleForStatus } from '../errors/error-label';
import { LABEL_EXAMPLE_DETAILS } from './label-examples';
import { asOpenApi31 } from './openapi-31';
import { operationIdOf } from './operation-ids';
import { deriveSecurity } from './security';
import { ACCESS_TAG } from '../../modules/access-control/access-auth';

const DESCRIPTION = `
Connects a gym's own systems (turnstile, ERP, front desk, app) to the benefits platform.

* **Check-in** routes (\`/v1/track_usages*\`) and the **app** route (\`/partner_app/v1/validate\`) take the
  gym's key in the \`x-api-key\` header.
* **Administrative** routes (\`/partner/*\`) take \`Authorization: Bearer <ACCESS_TOKEN>\`, from
  \`POST /partner/auth\`; the token lives 24 hours.
* The **control panel** (\`/admin/*\`) takes \`Authorization: Bearer <ADMIN_API_TOKEN>\` (automation; acts as an
  operator) or the **console session** cookie from \`POST /account/session\`. A session acts
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

function example(status: number, label: ErrorLabel, detail = LABEL_EXAMPLE_DETAILS[label]) {
  return { summary: label, value: buildErrorEnvelope(status, label, detail, titleForStatus(status)) };
}

interface CommonAnswer {
  /** Its name among the document's shared responses (`#/components/responses/<name>`). */
  name: string;
  status: number;
  label: ErrorLabel;
  /** When the route answers it, for the response's description. */
  when: string;
  /** An example detail of its own, where the label's usual one would mislead. */
  detail?: string;
  /** Named on the route's own response of that status too, as another cause of it (a 429, a 400). */
  alsoOnTheRoutes?: boolean;
}

function response(answer: CommonAnswer): ResponseObject {
  return {
    description: `${titleForStatus(answer.status)}. Labels: \`${answer.label}\` (${answer.when})`,
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ErrorEnvelopeDto' },
        examples: { [answer.label]: example(answer.status, answer.label, answer.detail) },
      },
    },
  };
}

/**
 * Declares an answer on an operation: a reference to the shared response when the status is not declared yet;
 * otherwise its label's example and sentence are added to the route's own (a token route's 429 also names the
 * per-address share).
 */
function declare(responses: ResponsesObject, answer: CommonAnswer): void {
  const key = String(answer.status);
  const existing = responses[key];
  if (!existing) {
    responses[key] = { $ref: `#/components/responses/${answer.name}` };
    return;
  }
  if (!answer.alsoOnTheRoutes || !('description' in existing)) return;
  existing.description = `${existing.description}; \`${answer.label}\` also when ${answer.when}`;
  const json = existing.content?.['application/json'];
  if (json && !json.examples?.[answer.label])
    json.examples = { ...json.examples, [answer.label]: example(answer.status, answer.label, answer.detail) };
}

const TIMEOUT: CommonAnswer = {
  name: 'RequestTimeout',
  status: 408,
  label: 'malformed_request',
  when: 'the request did not arrive whole within HTTP_REQUEST_TIMEOUT_SECONDS; the connection is closed',
  detail: 'The request did not arrive whole in time; the connection is closed.',
};
const MALFORMED_BODY: CommonAnswer = {
  name: 'MalformedRequest',
  status: 400,
  label: 'malformed_request',
  alsoOnTheRoutes: true,
  when: 'the body is not JSON, not an object, nests deeper than 32 or has an object of more than 100 fields; the query has more than 100 parameters; the URL holds a malformed %-encoding',
};
const MALFORMED_URL: CommonAnswer = {
  name: 'MalformedUrl',
  status: 400,
  label: 'malformed_request',
  alsoOnTheRoutes: true,
  when: 'the query has more than 100 parameters, or the URL holds a malformed %-encoding',
  detail: 'The query string has more than 100 parameters.',
};
const TOO_LARGE: CommonAnswer = {
  name: 'PayloadTooLarge',
  status: 413,
  label: 'payload_too_large',
  when: "the body is over the route's size limit or holds too many values",
};
const PATH_TOO_LONG: CommonAnswer = {
  name: 'UriTooLong',
  status: 414,
  label: 'malformed_request',
  when: 'a segment of the path is over 100 characters',
  detail: 'A segment of the URL path is over the length limit.',
};
const ADDRESS_SHARE: CommonAnswer = {
  name: 'AddressShareUsed',
  status: 429,
  label: 'rate_limited',
  alsoOnTheRoutes: true,
  when: 'behind a proxy named in TRUST_PROXY, more than HTTP_MAX_CONNECTIONS_PER_ADDRESS requests of one client address are in progress at once; Retry-After says when to try again',
  detail: 'Too many requests from your address are in progress at once; retry in a moment.',
};
const HEADERS_TOO_LARGE: CommonAnswer = {
  name: 'HeadersTooLarge',
  status: 431,
  label: 'malformed_request',
  when: 'the headers are over 16 KB',
  detail: 'The request headers are over the size limit.',
};
const INTERNAL_ERROR: CommonAnswer = {
  name: 'InternalError',
  status: 500,
  label: 'internal_error',
  when: 'the detail carries the request id',
};
const UNAVAILABLE: CommonAnswer = {
  name: 'ServiceUnavailable',
  status: 503,
  label: 'service_unavailable',
  when: 'the database cannot be reached, or the process is stopping; Retry-After says when to try again',
};
const COMMON_ANSWERS = [
  TIMEOUT,
  MALFORMED_BODY,
  MALFORMED_URL,
  TOO_LARGE,
  PATH_TOO_LONG,
  ADDRESS_SHARE,
  HEADERS_TOO_LARGE,
  INTERNAL_ERROR,
  UNAVAILABLE,
];

/**
 * The answers of the HTTP edge and of the pipeline before a route's own code, which every operation can give
 * (a write's body is read whether or not the route takes one): what the route declares itself comes first,
 * these complete it. `test/openapi-statuses.e2e-spec.ts` walks the routes' refusals and fails on any status an
 * operation answers without declaring it.
 */
function commonAnswers(method: string, path: string): CommonAnswer[] {
  const write = method !== 'get';
  return [
    write ? MALFORMED_BODY : MALFORMED_URL,
    TIMEOUT,
    ...(write ? [TOO_LARGE] : []),
    ...(path.includes('{') ? [PATH_TOO_LONG] : []),
    ADDRESS_SHARE,
    HEADERS_TOO_LARGE,
    INTERNAL_ERROR,
    UNAVAILABLE,
  ];
}

/** Adds the answers every route can give (see `commonAnswers`), shared as the document's own responses. */
function addCommonErrors(document: OpenAPIObject): void {
  document.components ??= {};
  document.components.responses = {
    ...document.components.responses,
    ...Object.fromEntries(COMMON_ANSWERS.map((answer) => [answer.name, response(answer)])),
  };
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method];
      if (!operation) continue;
      for (const answer of commonAnswers(method, path)) declare(operation.responses, answer);
      // A route behind no authenticating guard: said explicitly, for generators that would apply a default.
      operation.security ??= [];
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
  [
    ACCESS_TAG,
    "Gym software written for Wellhub's Access Control: validate, custom codes, the checkin webhook, sandbox",
  ],
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

/** The document of the app's routes; `publicBaseUrl` (PUBLIC_BASE_URL) is its server. */
export function buildOpenApiDocument(app: INestApplication, publicBaseUrl: string): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Gym Integration API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0')
    .addServer(publicBaseUrl, 'This service, at its public address (PUBLIC_BASE_URL)');
  for (const [name, description] of TAG_ORDER) builder.addTag(name, description);
  const modules = app.get(ModulesContainer);
  const securitySchemes = deriveSecurity(modules);
  for (const [name, scheme] of Object.entries(securitySchemes)) builder.addSecurity(name, scheme);
  const config = builder.build();
  const document = SwaggerModule.createDocument(app, config, { operationIdFactory: operationIdOf });
  addCommonErrors(document);
  addAliases(document);
  orderPaths(document);
  return asOpenApi31(document, modules);
}

/** Swagger UI at `/docs`, the OpenAPI document at `/docs-json`. */
export function setupSwagger(app: INestApplication, publicBaseUrl: string): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app, publicBaseUrl), {
    jsonDocumentUrl: 'docs-json',
  });
}
