import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import request from 'supertest';
import { WEBHOOK_QUEUE } from '../src/modules/webhooks/webhooks.constants';
import { createTestApp, TestApp } from './support/test-app';

describe('Swagger for the console routes (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    // This suite is over in a moment: let the queue finish connecting to Redis before the app closes.
    await t.app.get<Queue>(getQueueToken(WEBHOOK_QUEUE)).isReady();
  });
  afterAll(() => t.close());

  it('documents the session cookie scheme and every console route, with its roles and answers', async () => {
    const { body } = await request(t.http).get('/docs-json').expect(200);
    expect(body.components.securitySchemes.session).toEqual({
      type: 'apiKey',
      in: 'cookie',
      name: 'gis_session',
      description: expect.stringContaining('X-CSRF-Token'),
    });
    const routes: [string, string, string[] | null, string[]][] = [
      ['/account/session', 'post', null, ['200', '401', '422', '429']],
      ['/account/session', 'get', null, ['200', '401']],
      ['/account/session', 'delete', null, ['204', '401', '403']],
      ['/account/password-links/{token}', 'get', null, ['200', '404']],
      ['/account/password-links/{token}', 'post', null, ['204', '404', '422']],
      ['/admin/partners', 'get', ['operator', 'support'], ['200', '401', '403', '422']],
      ['/admin/places', 'get', ['operator', 'support', 'gym'], ['200', '401', '403', '422']],
      ['/admin/places/{id}/keys/reveal', 'post', ['operator', 'gym'], ['200', '401', '403', '404']],
      ['/admin/places/{id}/api-key', 'post', ['operator', 'gym'], ['201', '401', '403', '404']],
      ['/admin/partners/{id}/api-key', 'post', ['operator', 'gym'], ['201', '401', '403', '404']],
      ['/admin/beneficiaries', 'get', ['operator', 'support'], ['200', '401', '403', '422']],
      ['/admin/visits', 'get', ['operator', 'support'], ['200', '401', '403', '422']],
      ['/admin/places/{id}/webhooks', 'get', ['operator', 'support', 'gym'], ['200', '404']],
      ['/admin/places/{id}/webhooks', 'post', ['operator', 'gym'], ['201', '404', '422']],
      ['/admin/places/{id}/webhooks/{type}', 'put', ['operator', 'gym'], ['200', '404', '422']],
      ['/admin/places/{id}/webhooks/{type}', 'delete', ['operator', 'gym'], ['200', '404']],
      ['/admin/places/{id}/webhooks/{type}/test', 'post', ['operator', 'gym'], ['202', '404']],
      ['/admin/deliveries', 'get', ['operator', 'support', 'gym'], ['200', '422']],
      ['/admin/deliveries/{id}', 'get', ['operator', 'support', 'gym'], ['200', '404']],
      ['/admin/deliveries/{id}/redeliver', 'post', ['operator', 'support', 'gym'], ['202', '404', '422']],
      ['/admin/accounts', 'get', null, ['200', '401', '403', '422']],
      ['/admin/accounts', 'post', null, ['201', '422']],
      ['/admin/accounts/{id}', 'get', null, ['200', '404']],
      ['/admin/accounts/{id}', 'patch', null, ['200', '404', '422']],
      ['/admin/accounts/{id}/password-link', 'post', null, ['201', '404', '422']],
      ['/admin/audit', 'get', null, ['200', '401', '403', '422']],
      ['/admin/overview', 'get', ['operator', 'support', 'gym'], ['200', '401', '403', '404', '422']],
      ['/admin/partners/{id}', 'patch', ['operator'], ['200', '404', '422']],
      ['/admin/beneficiaries/{cpf}/usage', 'get', ['operator', 'support'], ['200', '404']],
      ['/admin/beneficiaries/{cpf}/visits', 'get', ['operator', 'support'], ['200', '404', '422']],
      ['/admin/beneficiaries/{cpf}/check-ins', 'get', ['operator', 'support'], ['200', '404', '422']],
      ['/admin/visits/export', 'get', ['operator', 'support'], ['200', '422']],
      ['/admin/deliveries/export', 'get', ['operator', 'support', 'gym'], ['200', '422']],
      ['/admin/beneficiaries/export', 'get', ['operator', 'support'], ['200', '422']],
      ['/admin/audit/export', 'get', ['operator'], ['200', '422']],
    ];
    for (const [path, method, roles, statuses] of routes) {
      const operation = body.paths[path]?.[method];
      expect({ path, method, documented: operation !== undefined }).toEqual({
        path,
        method,
        documented: true,
      });
      expect({ path, method, statuses: Object.keys(operation.responses) }).toEqual({
        path,
        method,
        statuses: expect.arrayContaining(statuses),
      });
      if (roles) expect({ path, method, roles: operation['x-roles'] }).toEqual({ path, method, roles });
      if (path.startsWith('/admin')) {
        expect(operation.security).toEqual(expect.arrayContaining([{ admin: [] }, { session: [] }]));
        expect(Object.keys(operation.responses['403'].content['application/json'].examples)).toContain(
          'forbidden',
        );
      }
    }
    // Operator-only routes say so too.
    expect(body.paths['/admin/accounts'].get['x-roles']).toEqual(['operator']);
    expect(body.paths['/admin/places'].post['x-roles']).toEqual(['operator']);
    expect(body.paths['/account/session'].get.security).toEqual([{ session: [] }]);
    const signIn401 = body.paths['/account/session'].post.responses['401'].content['application/json'];
    expect(signIn401.examples.invalid_credentials.value.errors[0].detail).toBe(
      'The e-mail and password do not match an active account.',
    );
  });
});
