import { Type } from '@nestjs/common';
import { GUARDS_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { DECORATORS } from '@nestjs/swagger';
import type {
  SecurityRequirementObject,
  SecuritySchemeObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** A way to present credentials, under the name the OpenAPI document gives it. */
export interface CredentialScheme {
  name: string;
  scheme: SecuritySchemeObject;
}

const ACCEPTS_METADATA = 'openapi:accepts-credentials';

/**
 * On a guard class: the credentials it lets in, any one of them. Every route behind the guard declares them as its
 * `security`, so the document says what the guards check (a guard that declares nothing, a rate limit, is not one
 * that authenticates).
 */
export function AcceptsCredentials(...schemes: CredentialScheme[]): ClassDecorator {
  return (target) => Reflect.defineMetadata(ACCEPTS_METADATA, schemes, target);
}

function schemesOf(guard: unknown): CredentialScheme[] | undefined {
  const type = typeof guard === 'function' ? guard : (guard as object | undefined)?.constructor;
  return type ? (Reflect.getMetadata(ACCEPTS_METADATA, type) as CredentialScheme[] | undefined) : undefined;
}

/**
 * The requirements of a route behind these guards: each guard lets in any one of its schemes, and every guard
 * must let the request in, so a route behind two authenticating guards needs one scheme of each.
 */
export function requirementsOf(guards: unknown[]): SecurityRequirementObject[] {
  let requirements: SecurityRequirementObject[] = [{}];
  for (const schemes of guards.map(schemesOf)) {
    if (!schemes) continue;
    requirements = requirements.flatMap((requirement) =>
      schemes.map((scheme) => ({ ...requirement, [scheme.name]: [] })),
    );
  }
  return requirements.filter((requirement) => Object.keys(requirement).length > 0);
}

/**
 * Writes each route's security, derived from the guards on its controller and handler, where the Swagger scanner
 * reads it (public routes get an explicit `security: []`); answers the schemes met, for the document's
 * components. A name that two guards define differently stops the build.
 */
export function deriveSecurity(modules: ModulesContainer): Record<string, SecuritySchemeObject> {
  const schemes: Record<string, SecuritySchemeObject> = {};
  for (const module of modules.values()) {
    for (const { metatype } of module.controllers.values()) {
      if (!metatype) continue;
      const controller = metatype as Type<unknown>;
      const classGuards = (Reflect.getMetadata(GUARDS_METADATA, controller) as unknown[] | undefined) ?? [];
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        const guards = [
          ...classGuards,
          ...((Reflect.getMetadata(GUARDS_METADATA, handler) as unknown[] | undefined) ?? []),
        ];
        for (const scheme of guards.flatMap((guard) => schemesOf(guard) ?? [])) {
          const known = schemes[scheme.name];
          if (known && JSON.stringify(known) !== JSON.stringify(scheme.scheme))
            throw new Error(`Two guards define the security scheme ${scheme.name} differently`);
          schemes[scheme.name] = scheme.scheme;
        }
        Reflect.defineMetadata(DECORATORS.API_SECURITY, requirementsOf(guards), handler);
      }
    }
  }
  return schemes;
}
