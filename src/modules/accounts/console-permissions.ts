import { Injectable, OnApplicationBootstrap, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { ROLES_METADATA } from '../auth/guards';
import { Role } from './entities/account.entity';

/**
 * What the console offers, by resource and action (react-admin's words), and the control-panel route each one
 * calls. Whether a session may do it is whether that route lets its role in (`@Roles`; operators every
 * route), so the console shows exactly what the service would accept, from the one place roles are declared.
 */
export const CONSOLE_ACTIONS: Record<string, Record<string, string>> = {
  places: {
    list: 'GET /admin/places',
    show: 'GET /admin/places/:id',
    create: 'POST /admin/places',
    edit: 'PATCH /admin/places/:id',
    reveal: 'POST /admin/places/:id/keys/reveal',
    rotate: 'POST /admin/places/:id/api-key',
  },
  /** The partner's key on a place's page: for operators and chain accounts (see `holdsPartnerKey`). */
  'partner-key': {
    reveal: 'POST /admin/places/:id/keys/reveal',
    rotate: 'POST /admin/partners/:id/api-key',
  },
  'place-plans': {
    list: 'GET /admin/places/:id',
    create: 'POST /admin/places/:id/plans',
    delete: 'DELETE /admin/places/:id/plans/:code',
  },
  'place-visits': { list: 'GET /admin/places/:id/track-usages' },
  'place-app-check-ins': { list: 'GET /admin/places/:id/check-ins' },
  'place-webhooks': {
    list: 'GET /admin/places/:id/webhooks',
    create: 'POST /admin/places/:id/webhooks',
    edit: 'PUT /admin/places/:id/webhooks/:type',
    delete: 'DELETE /admin/places/:id/webhooks/:type',
    test: 'POST /admin/places/:id/webhooks/:type/test',
  },
  partners: {
    list: 'GET /admin/partners',
    show: 'GET /admin/partners/:id',
    create: 'POST /admin/partners',
    edit: 'PATCH /admin/partners/:id',
  },
  'benefit-plans': {
    list: 'GET /admin/benefit-plans',
    create: 'POST /admin/benefit-plans',
    edit: 'PATCH /admin/benefit-plans/:code',
  },
  beneficiaries: {
    list: 'GET /admin/beneficiaries',
    show: 'GET /admin/beneficiaries/:cpf',
    create: 'POST /admin/beneficiaries',
    edit: 'PATCH /admin/beneficiaries/:cpf',
  },
  'beneficiary-visits': { list: 'GET /admin/beneficiaries/:cpf/visits' },
  'beneficiary-check-ins': { list: 'GET /admin/beneficiaries/:cpf/check-ins' },
  visits: { list: 'GET /admin/visits' },
  deliveries: {
    list: 'GET /admin/deliveries',
    show: 'GET /admin/deliveries/:id',
    redeliver: 'POST /admin/deliveries/:id/redeliver',
  },
  accounts: {
    list: 'GET /admin/accounts',
    create: 'POST /admin/accounts',
    edit: 'PATCH /admin/accounts/:id',
  },
  audit: { list: 'GET /admin/audit' },
};

/** Per resource, the actions a session may take. */
export type ConsolePermissions = Record<string, string[]>;

/** A chain account (scoped to a partner) holds its partner's key; one scoped to places never sees it. */
function holdsPartnerKey(account: { role: Role; partnerId: number | null }): boolean {
  return account.role !== 'gym' || account.partnerId !== null;
}

const routeKey = (method: string, ...paths: string[]) =>
  `${method} /${paths
    .flatMap((path) => path.split('/'))
    .filter(Boolean)
    .join('/')}`;

/** Reads, once the app is up, which roles besides operator each control-panel route lets in. */
@Injectable()
export class ConsolePermissionsReader implements OnApplicationBootstrap {
  private readonly rolesByRoute = new Map<string, readonly Role[]>();

  constructor(private readonly modules: ModulesContainer) {}

  onApplicationBootstrap(): void {
    for (const module of this.modules.values()) {
      for (const { metatype } of module.controllers.values()) {
        if (!metatype) continue;
        const base = [Reflect.getMetadata(PATH_METADATA, metatype) as string | string[]].flat()[0] ?? '';
        const prototype = metatype.prototype as Record<string, unknown>;
        for (const name of Object.getOwnPropertyNames(prototype)) {
          const handler = prototype[name];
          if (name === 'constructor' || typeof handler !== 'function') continue;
          const path = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
          if (path === undefined) continue;
          const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
          const roles =
            (Reflect.getMetadata(ROLES_METADATA, handler) as Role[] | undefined) ??
            (Reflect.getMetadata(ROLES_METADATA, metatype) as Role[] | undefined) ??
            [];
          this.rolesByRoute.set(routeKey(method, base, [path].flat()[0]), roles);
        }
      }
    }
    const missing = Object.values(CONSOLE_ACTIONS)
      .flatMap((actions) => Object.values(actions))
      .filter((route) => !this.rolesByRoute.has(route));
    if (missing.length > 0)
      throw new Error(`CONSOLE_ACTIONS names routes that do not exist: ${missing.join(', ')}`);
  }

  /** What an account's session may do in the console. */
  permissionsOf(account: { role: Role; partnerId: number | null }): ConsolePermissions {
    const permissions: ConsolePermissions = {};
    for (const [resource, actions] of Object.entries(CONSOLE_ACTIONS)) {
      if (resource === 'partner-key' && !holdsPartnerKey(account)) continue;
      const allowed = Object.entries(actions)
        .filter(
          ([, route]) => account.role === 'operator' || this.rolesByRoute.get(route)?.includes(account.role),
        )
        .map(([action]) => action);
      if (allowed.length > 0) permissions[resource] = allowed;
    }
    return permissions;
  }
}
