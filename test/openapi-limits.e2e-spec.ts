import { RequestMethod, Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { getMetadataStorage } from 'class-validator';
import request from 'supertest';
import {
  CUSTOM_CODE_MAX_LENGTH,
  WEBHOOK_SECRET_MAX_LENGTH,
} from '../src/modules/access-control/dto/access-control.dto';
import {
  IDENTIFIER_TYPES,
  MAX_FIELD_LENGTH,
  MEMBER_NUMBER_PATTERN,
} from '../src/modules/eligibility/track-usage-request';
import { MAX_URL_LENGTH } from '../src/modules/webhooks/webhook-policy';
import { MAX_BULK_ROWS } from '../src/modules/control-panel/bulk-rows';
import { createTestApp, TestApp } from './support/test-app';

type Schema = {
  $ref?: string;
  oneOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  [keyword: string]: unknown;
};
type Operation = {
  requestBody?: { content: Record<string, { schema: Schema }> };
  parameters?: { name: string; in: string; schema?: Schema }[];
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

/**
 * What each bounded class-validator constraint must read as in the document, written here on its own (not
 * taken from the code that writes the document), so that a limit the document loses fails this test.
 */
const DECLARED_AS: Record<string, (constraints: unknown[]) => Record<string, unknown>> = {
  maxLength: ([max]) => ({ maxLength: max }),
  minLength: ([min]) => ({ minLength: min }),
  isNotEmpty: () => ({ minLength: 1 }),
  isLength: ([min, max]) => ({ minLength: min, maxLength: max }),
  min: ([min]) => ({ minimum: min }),
  max: ([max]) => ({ maximum: max }),
  matches: ([pattern]) => ({ pattern: (pattern as RegExp).source }),
  isIn: ([values]) => ({ enum: values }),
  arrayMaxSize: ([max]) => ({ maxItems: max }),
  isEmail: () => ({ format: 'email' }),
  isCalendarDate: () => ({ format: 'date' }),
};
/** Constraints of a type, not of a bound: the schema's type says them. */
const UNBOUNDED = ['isString', 'isBoolean', 'isInt', 'isArray', 'isOptional'];

/**
 * The routes that read their bodies by hand rather than through a DTO (measured faster: the check-in
 * routes' parser, scripts/body-validation-cost.ts; the bulk import's rows, bulk-rows.ts), and the limits
 * their parsers enforce, from the parsers' own constants: schema → property → keywords.
 */
const TRACK_USAGE_FIELDS = {
  type: { enum: IDENTIFIER_TYPES },
  identifier: { maxLength: MAX_FIELD_LENGTH },
  service_provider_code: { maxLength: MAX_FIELD_LENGTH },
  service_provider_plan_code: { maxLength: MAX_FIELD_LENGTH },
};
const CUSTOM_CODE_BODY = {
  CustomCodeRequestDto: { custom_code: { minLength: 1, maxLength: CUSTOM_CODE_MAX_LENGTH } },
};
const HAND_PARSED: Record<string, Record<string, Record<string, Record<string, unknown>>>> = {
  'POST /v1/track_usages/validate': {
    TrackUsageAttributesDto: TRACK_USAGE_FIELDS,
    TrackUsageDataDto: { type: { enum: ['track_usage'] } },
  },
  'POST /v1/track_usages': {
    TrackUsageAttributesDto: TRACK_USAGE_FIELDS,
    TrackUsageDataDto: { type: { enum: ['track_usage'] } },
  },
  'POST /v1/track_usages/beneficiaries/code': {
    IdentifierRequestDto: { type: { enum: IDENTIFIER_TYPES }, identifier: { maxLength: MAX_FIELD_LENGTH } },
  },
  'POST /partner_app/v1/validate': {
    AppValidationRequestDto: { employee_document_number: { maxLength: MAX_FIELD_LENGTH } },
  },
  'POST /member/v1/check_ins': {
    CreateMemberCheckInDto: {
      type: { enum: ['cpf', 'code', 'member_number'] },
      identifier: { maxLength: MAX_FIELD_LENGTH },
      service_provider_code: { maxLength: MAX_FIELD_LENGTH },
      service_provider_plan_code: { maxLength: MAX_FIELD_LENGTH },
    },
  },
  'POST /admin/beneficiaries/bulk': { BulkImportDto: { beneficiaries: { maxItems: MAX_BULK_ROWS } } },
  // The Wellhub-compatible routes read their bodies by hand: their refusals carry that platform's keys.
  'POST /access/v1/validate': {
    ValidateRequestDto: {
      gympass_id: { pattern: MEMBER_NUMBER_PATTERN.source },
      custom_code: { minLength: 1, maxLength: CUSTOM_CODE_MAX_LENGTH },
    },
  },
  'POST /access/v1/code/{gympass_id}': CUSTOM_CODE_BODY,
  'PUT /access/v1/code/{gympass_id}': CUSTOM_CODE_BODY,
  'POST /v1/systems/gyms/{gym_id}/webhooks': {
    GymWebhookRequestItemDto: {
      event: { enum: ['checkin'] },
      url: { maxLength: MAX_URL_LENGTH },
      secret: { minLength: 1, maxLength: WEBHOOK_SECRET_MAX_LENGTH },
    },
  },
  'POST /helper/v1/gyms/{gym_id}/simulate/checkins': {
    SimulateCheckInRequestDto: { gympass_user_id: { pattern: MEMBER_NUMBER_PATTERN.source } },
  },
};

interface Route {
  key: string;
  body?: Type;
  query?: Type;
}

const joinPath = (...parts: string[]) =>
  `/${parts
    .flatMap((part) => part.split('/'))
    .filter(Boolean)
    .join('/')}`.replace(/:(\w+)/g, '{$1}');

/** Every handler of the app with the classes its @Body() and @Query() take. */
function routesOf(t: TestApp): Route[] {
  const routes: Route[] = [];
  for (const module of t.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type;
      const base = [Reflect.getMetadata(PATH_METADATA, controller) as string | string[]].flat()[0] ?? '';
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = controller.prototype[name] as unknown;
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (path === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, name) ?? []) as Type[];
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<
          string,
          { index: number; data?: unknown }
        >;
        const route: Route = { key: `${method} ${joinPath(base, [path].flat()[0])}` };
        for (const [key, arg] of Object.entries(args)) {
          const kind = Number(key.split(':')[0]);
          if (arg.data !== undefined) continue;
          if (kind === RouteParamtypes.BODY) route.body = types[arg.index];
          if (kind === RouteParamtypes.QUERY) route.query = types[arg.index];
        }
        routes.push(route);
      }
    }
  }
  return routes;
}

/** The limits a DTO's constraints enforce: property → keywords. */
function enforcedLimits(dto: Type): Map<string, Record<string, unknown>> {
  const limits = new Map<string, Record<string, unknown>>();
  for (const metadata of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) {
    if (metadata.type !== 'customValidation' || metadata.each) continue;
    const name = metadata.name ?? '';
    const declared = DECLARED_AS[name];
    if (!declared) {
      if (!UNBOUNDED.includes(name)) {
        throw new Error(
          `${dto.name}.${metadata.propertyName}: say in this test how @${name} reads in OpenAPI`,
        );
      }
      continue;
    }
    const keywords = declared(metadata.constraints ?? []);
    limits.set(metadata.propertyName, { ...limits.get(metadata.propertyName), ...keywords });
  }
  return limits;
}

describe('Every limit the service enforces on a request is in the OpenAPI document (e2e)', () => {
  let t: TestApp;
  let doc: Document;
  let routes: Route[];
  beforeAll(async () => {
    t = await createTestApp();
    doc = (await request(t.http).get('/docs-json').expect(200)).body;
    routes = routesOf(t);
  });
  afterAll(() => t.close());

  const schemaNamed = (name: string): Schema => {
    const schema = doc.components.schemas[name];
    if (!schema) throw new Error(`no schema ${name} in the document`);
    return schema;
  };
  const operation = (key: string): Operation => {
    const [method, path] = key.split(' ');
    const found = doc.paths[path]?.[method.toLowerCase()];
    if (!found) throw new Error(`no operation ${key} in the document`);
    return found;
  };
  /** The schemas a request body names, `oneOf` and `$ref` followed. */
  const bodySchemas = (op: Operation): string[] => {
    const names: string[] = [];
    const visit = (schema: Schema | undefined) => {
      if (!schema) return;
      if (schema.$ref) names.push(schema.$ref.split('/').pop() as string);
      schema.oneOf?.forEach(visit);
    };
    visit(op.requestBody?.content['application/json']?.schema);
    return names;
  };

  it('finds the routes, with bodies and queries', () => {
    expect(routes.length).toBeGreaterThan(50);
    expect(routes.filter((route) => route.body).length).toBeGreaterThan(20);
    expect(routes.filter((route) => route.query && route.query !== Object).length).toBeGreaterThan(10);
  });

  it('every body is a DTO class, but for the few read by hand, which are listed here', () => {
    const untyped = routes
      .filter(
        (route) =>
          route.body &&
          (route.body === Object ||
            getMetadataStorage().getTargetValidationMetadatas(route.body, '', true, false).length === 0),
      )
      .map((route) => route.key)
      .sort();
    expect(untyped).toEqual(Object.keys(HAND_PARSED).sort());
  });

  it('each DTO body declares, for every field, the limits its constraints enforce', () => {
    const missing: string[] = [];
    for (const route of routes) {
      if (!route.body || HAND_PARSED[route.key]) continue;
      const [name] = bodySchemas(operation(route.key));
      expect([route.key, name]).toEqual([route.key, route.body.name]);
      const schema = schemaNamed(name);
      for (const [property, keywords] of enforcedLimits(route.body)) {
        for (const [keyword, value] of Object.entries(keywords)) {
          const declared = schema.properties?.[property]?.[keyword];
          if (JSON.stringify(declared) !== JSON.stringify(value))
            missing.push(
              `${route.key} ${name}.${property} ${keyword}: ${JSON.stringify(value)}, document: ${JSON.stringify(declared)}`,
            );
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('each DTO query declares, for every parameter, the limits its constraints enforce', () => {
    const missing: string[] = [];
    for (const route of routes) {
      if (!route.query || route.query === Object) continue;
      const parameters = operation(route.key).parameters ?? [];
      for (const [property, keywords] of enforcedLimits(route.query)) {
        const parameter = parameters.find((p) => p.in === 'query' && p.name === property);
        for (const [keyword, value] of Object.entries(keywords)) {
          const declared = parameter?.schema?.[keyword];
          if (JSON.stringify(declared) !== JSON.stringify(value))
            missing.push(
              `${route.key} ?${property} ${keyword}: ${JSON.stringify(value)}, document: ${JSON.stringify(declared)}`,
            );
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('the bodies read by hand declare the limits of their parsers, from the same constants', () => {
    const missing: string[] = [];
    for (const [key, schemas] of Object.entries(HAND_PARSED)) {
      const named = bodySchemas(operation(key));
      for (const [name, properties] of Object.entries(schemas)) {
        const schema = schemaNamed(name);
        if (
          !named.includes(name) &&
          !Object.values(doc.components.schemas).some((s) => JSON.stringify(s).includes(`/${name}"`))
        )
          missing.push(`${key}: ${name} is not what its body refers to`);
        for (const [property, keywords] of Object.entries(properties)) {
          for (const [keyword, value] of Object.entries(keywords)) {
            const declared = schema.properties?.[property]?.[keyword];
            if (JSON.stringify(declared) !== JSON.stringify(value))
              missing.push(
                `${key} ${name}.${property} ${keyword}: ${JSON.stringify(value)}, document: ${JSON.stringify(declared)}`,
              );
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
