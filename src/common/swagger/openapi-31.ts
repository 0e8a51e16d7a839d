import { applyDecorators, Type } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { ApiExtraModels, getSchemaPath, OpenAPIObject } from '@nestjs/swagger';

/** A request the service sends to a subscriber: the document's `webhooks` entry of that name. */
export interface SentEvent {
  name: string;
  summary: string;
  description: string;
  body: Type<unknown>;
}

const SENT_EVENTS_METADATA = 'openapi:sent-events';

/** On the controller whose routes subscribe a URL: the requests the service then POSTs to it. */
export function ApiSentEvents(...events: SentEvent[]): ClassDecorator {
  return applyDecorators(ApiExtraModels(...events.map((event) => event.body)), (target: object) =>
    Reflect.defineMetadata(SENT_EVENTS_METADATA, events, target),
  );
}

/** The `webhooks` of the document: the events that the controllers declare with ApiSentEvents. */
export function sentEvents(modules: ModulesContainer): Record<string, object> {
  const webhooks: Record<string, object> = {};
  for (const module of modules.values()) {
    for (const { metatype } of module.controllers.values()) {
      const events = metatype
        ? (Reflect.getMetadata(SENT_EVENTS_METADATA, metatype) as SentEvent[] | undefined)
        : undefined;
      for (const event of events ?? []) {
        webhooks[event.name] = {
          post: {
            summary: event.summary,
            description: event.description,
            requestBody: {
              required: true,
              content: { 'application/json': { schema: { $ref: getSchemaPath(event.body) } } },
            },
            responses: {
              '200': { description: 'Any 2xx within 15 s, once the receiver has stored the event' },
            },
          },
        };
      }
    }
  }
  return webhooks;
}

type Node = Record<string, unknown>;

/** Keys whose values are data (examples), not schemas: left as they are. */
const DATA_KEYS = new Set(['example', 'examples', 'default', 'enum', 'const']);
/** Keys whose values map names to objects: a name there (a property called `example`) is not a keyword. */
const NAMED = new Set(['properties', 'schemas', 'paths', 'responses', 'content', 'callbacks', 'webhooks']);

/**
 * OpenAPI 3.1 has no `nullable`: a schema that may be null says so in its type (`["string", "null"]`), or, when it
 * composes others, as one of its alternatives (`anyOf: [..., {type: "null"}]`). The Swagger module writes 3.0's
 * form; this rewrites it in place.
 */
export function withoutNullable(value: unknown, keysAreNames = false): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutNullable(item));
  if (value === null || typeof value !== 'object') return value;
  const node: Node = {};
  for (const [key, child] of Object.entries(value as Node))
    node[key] =
      !keysAreNames && DATA_KEYS.has(key) ? child : withoutNullable(child, !keysAreNames && NAMED.has(key));
  if (keysAreNames) return node;
  if (node.nullable !== true) return node;
  const { nullable: _nullable, ...schema } = node;
  if (typeof schema.type === 'string' && !schema.$ref && !schema.allOf && !schema.oneOf && !schema.anyOf) {
    return {
      ...schema,
      type: [schema.type, 'null'],
      ...(Array.isArray(schema.enum) && { enum: [...(schema.enum as unknown[]), null] }),
    };
  }
  const { $ref, allOf, oneOf, anyOf, type: _type, ...annotations } = schema;
  const composed =
    $ref !== undefined ? { $ref } : allOf ? { allOf } : oneOf ? { oneOf } : anyOf ? { anyOf } : {};
  return { ...annotations, anyOf: [composed, { type: 'null' }] };
}

/** The 3.1 document: no `nullable`, and the events the service sends as `webhooks`. */
export function asOpenApi31(document: OpenAPIObject, modules: ModulesContainer): OpenAPIObject {
  const converted = withoutNullable(document) as OpenAPIObject;
  const webhooks = sentEvents(modules);
  return {
    ...converted,
    openapi: '3.1.0',
    ...(Object.keys(webhooks).length > 0 && { webhooks }),
  } as OpenAPIObject;
}
