import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import {
  ADMIN_SECURITY,
  API_KEY_SECURITY,
  BEARER_SECURITY,
  SESSION_SECURITY,
} from '../../modules/auth/auth.decorators';
import { SESSION_COOKIE } from '../../modules/accounts/session-cookie';
import { buildErrorEnvelope } from '../errors/error-envelope';
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

Every non-2xx answer is the same envelope: \`{ "errors": [ { status, title, label, detail, source: [{label, message}] } ] }\`.
Labels are API and never change meaning; messages are for people.
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
    }
  }
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Gym Integration API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0')
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
  return document;
}

/** Swagger UI at `/docs`, the OpenAPI document at `/docs-json`. */
export function setupSwagger(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), { jsonDocumentUrl: 'docs-json' });
}
