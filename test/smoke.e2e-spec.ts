import request from 'supertest';
import { createTestApp, TestApp } from './support/test-app';

describe('app pipeline (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers unknown routes with the envelope', async () => {
    const res = await request(t.http).get('/nope').expect(404);
    expect(res.body.errors[0]).toMatchObject({ status: '404', title: 'Not Found', label: 'not_found' });
  });
});
