import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, type Harness, type TestWorkspace } from '../support/harness.js';

const VALIDATION = 'validation';

/** Stored receipts of a workspace, read through the data layer (no route reads them back). */
async function receiptsOf(h: Harness, ws: TestWorkspace) {
  return h.app.db
    .selectFrom('receipts')
    .select(['organization_id', 'user_id', 'receipt'])
    .where('organization_id', '=', ws.organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

describeEachStore('Billing routes', (h) => {
  it('GET /subscriptions and GET /billing-history are empty arrays by default', async () => {
    const ws = await h.workspace();
    const subscriptions = await as(h, ws).get('/api/subscriptions');
    expect(subscriptions.status).toBe(200);
    expect(subscriptions.body).toEqual([]);
    const history = await as(h, ws).get('/api/billing-history');
    expect(history.status).toBe(200);
    expect(history.body).toEqual([]);
  });

  it('GET /subscriptions reads the stored subscriptions, optional fields left out when unset', async () => {
    const ws = await h.workspace();
    await make.subscription(h, ws, {
      id: 'sub_a',
      status: 'active',
      plan: 'team',
      nextBillDate: '2026-08-01',
      quantity: 5,
    });
    await make.subscription(h, ws, { id: 'sub_b', status: 'cancelled' });
    const res = await as(h, ws).get('/api/subscriptions');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { id: 'sub_a', status: 'active', plan: 'team', nextBillDate: '2026-08-01', quantity: 5 },
      { id: 'sub_b', status: 'cancelled' },
    ]);
  });

  it('GET /billing-history reads the stored transactions, paidAt left out when unset', async () => {
    const ws = await h.workspace();
    await make.billingTransaction(h, ws, {
      id: 'tx_a',
      amount: 12.5,
      currency: 'EUR',
      status: 'paid',
      paidAt: '2026-07-01T10:00:00.000Z',
    });
    await make.billingTransaction(h, ws, { id: 'tx_b', amount: 0, currency: 'USD', status: 'open' });
    const res = await as(h, ws).get('/api/billing-history');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { id: 'tx_a', amount: 12.5, currency: 'EUR', status: 'paid', paidAt: '2026-07-01T10:00:00.000Z' },
      { id: 'tx_b', amount: 0, currency: 'USD', status: 'open' },
    ]);
  });

  it('billing records of one workspace are invisible and unchangeable from another', async () => {
    const a = await h.workspace();
    const b = await h.workspace();
    await make.subscription(h, a, { id: 'sub_shared', status: 'active', quantity: 3 });
    await make.billingTransaction(h, a, { id: 'tx_a', amount: 9, currency: 'USD', status: 'paid' });

    expect((await as(h, b).get('/api/subscriptions')).body).toEqual([]);
    expect((await as(h, b).get('/api/billing-history')).body).toEqual([]);
    const put = await as(h, b).put('/api/subscriptions/sub_shared', { quantity: 7 });
    expect(put.status).toBe(404);
    expect(put.body.code).toBe('not-found');
    expect((await as(h, a).get('/api/subscriptions')).body).toEqual([{ id: 'sub_shared', status: 'active', quantity: 3 }]);

    // The same external id may exist in both workspaces; each PUT changes only its own.
    await make.subscription(h, b, { id: 'sub_shared', status: 'trialing', quantity: 1 });
    expect((await as(h, b).put('/api/subscriptions/sub_shared', { quantity: 2 })).status).toBe(200);
    expect((await as(h, a).get('/api/subscriptions')).body).toEqual([{ id: 'sub_shared', status: 'active', quantity: 3 }]);
    expect((await as(h, b).get('/api/subscriptions')).body).toEqual([{ id: 'sub_shared', status: 'trialing', quantity: 2 }]);
  });

  it('every billing route is for administrators only: a User gets 403, before the body is validated', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws, { role: 'User' });
    await make.subscription(h, ws, { id: 'sub_a', status: 'active', quantity: 1 });
    const asUser = as(h, ws, user);
    const answers = [
      await asUser.get('/api/subscriptions'),
      await asUser.put('/api/subscriptions/sub_a', { quantity: 4 }),
      await asUser.put('/api/subscriptions/sub_a', { quantity: 'x' }),
      await asUser.post('/api/checkout', { product: 1, quantity: 1 }),
      await asUser.get('/api/billing-history'),
      await asUser.post('/api/receipt', { receiptBase64: 'YQ==' }),
      await asUser.post('/api/receipt', { receiptBase64: '' }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    expect((await as(h, ws).get('/api/subscriptions')).body).toEqual([{ id: 'sub_a', status: 'active', quantity: 1 }]);
    expect(await receiptsOf(h, ws)).toEqual([]);
  });

  it('PUT /subscriptions/{id} sets the stored quantity and answers {}', async () => {
    const ws = await h.workspace();
    await make.subscription(h, ws, {
      id: 'sub_a',
      status: 'active',
      plan: 'team',
      nextBillDate: '2026-08-01',
      quantity: 5,
    });
    const res = await as(h, ws).put('/api/subscriptions/sub_a', { quantity: 12 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await as(h, ws).get('/api/subscriptions')).body).toEqual([
      { id: 'sub_a', status: 'active', plan: 'team', nextBillDate: '2026-08-01', quantity: 12 },
    ]);
  });

  it('PUT /subscriptions/{id} on an unknown subscription is 404', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).put('/api/subscriptions/sub_missing', { quantity: 2 });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not-found');
  });

  it('PUT /subscriptions/{id} needs quantity as an integer ≥ 1 (no coercion): 422 and nothing changes', async () => {
    const ws = await h.workspace();
    await make.subscription(h, ws, { id: 'sub_a', status: 'active', quantity: 5 });
    for (const body of [{ quantity: 0 }, { quantity: -1 }, { quantity: 1.5 }, { quantity: '2' }, { quantity: null }, {}]) {
      const res = await as(h, ws).put('/api/subscriptions/sub_a', body);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe(VALIDATION);
      expect(res.body.errors[0].pointer).toBe('/body/quantity');
    }
    expect((await as(h, ws).get('/api/subscriptions')).body).toEqual([{ id: 'sub_a', status: 'active', quantity: 5 }]);
  });

  it('POST /checkout answers the service\'s own checkout URL, built from PUBLIC_URL and never from request headers', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).post('/api/checkout', { product: 3, quantity: 2 }, {
      headers: { 'x-forwarded-host': 'evil.example.com', 'x-forwarded-proto': 'https', forwarded: 'host=evil.example.com' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      url: `http://timetrack.test:3000/billing/checkout?workspace=${ws.domain}&product=3&quantity=2`,
    });
  });

  it('POST /checkout needs product and quantity as integers ≥ 1; strings such as "1" are 422', async () => {
    const ws = await h.workspace();
    const cases: [unknown, string][] = [
      [{ product: '1', quantity: 1 }, '/body/product'],
      [{ product: 1, quantity: '1' }, '/body/quantity'],
      [{ product: 0, quantity: 1 }, '/body/product'],
      [{ product: 1, quantity: 0 }, '/body/quantity'],
      [{ product: 1.5, quantity: 1 }, '/body/product'],
      [{ product: 1, quantity: -3 }, '/body/quantity'],
      [{ quantity: 1 }, '/body/product'],
      [{ product: 1 }, '/body/quantity'],
    ];
    for (const [body, pointer] of cases) {
      const res = await as(h, ws).post('/api/checkout', body);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe(VALIDATION);
      expect(res.body.errors[0].pointer).toBe(pointer);
    }
  });

  it('POST /receipt stores a canonical base64 receipt with the workspace and caller and answers {ok: true}', async () => {
    const ws = await h.workspace();
    const receipt = Buffer.from('app-store receipt \u00ff\u0000 bytes').toString('base64');
    const res = await as(h, ws).post('/api/receipt', { receiptBase64: receipt });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(await as(h, ws).post('/api/receipt', { receiptBase64: 'YQ==' })).toMatchObject({ status: 200, body: { ok: true } });
    expect(await receiptsOf(h, ws)).toEqual([
      { organization_id: ws.organizationId, user_id: ws.admin.userId, receipt },
      { organization_id: ws.organizationId, user_id: ws.admin.userId, receipt: 'YQ==' },
    ]);
  });

  it('POST /receipt rejects anything but non-empty canonical base64 with 422 and stores nothing', async () => {
    const ws = await h.workspace();
    const rejected: unknown[] = [
      '', // empty
      'YQ', // padding missing
      'YQ=', // wrong padding
      'YR==', // non-zero unused bits: not the canonical encoding of its byte
      'YWJj\n', // line break
      ' YWJj', // whitespace
      'YW Jj', // whitespace inside
      'a-_b', // base64url alphabet
      'YWJj*A==', // foreign character
      '====', // only padding
      'YQ==YQ==', // padding in the middle
      'x'.repeat(524_292), // longer than the bound
      123, // not a string
      null,
    ];
    for (const receiptBase64 of rejected) {
      const res = await as(h, ws).post('/api/receipt', { receiptBase64 });
      expect(res.status, JSON.stringify(receiptBase64).slice(0, 20)).toBe(422);
      expect(res.body.code).toBe(VALIDATION);
      expect(res.body.errors[0].pointer).toBe('/body/receiptBase64');
    }
    const missing = await as(h, ws).post('/api/receipt', {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].pointer).toBe('/body/receiptBase64');
    expect(await receiptsOf(h, ws)).toEqual([]);
  });

  it('a stored receipt belongs to the workspace: it outlives the user who posted it', async () => {
    const ws = await h.workspace();
    const admin = await h.user(ws, { role: 'Administrator' });
    expect((await as(h, ws, admin).post('/api/receipt', { receiptBase64: 'YWJj' })).status).toBe(200);
    await h.app.db.deleteFrom('users').where('id', '=', admin.userId).execute();
    expect(await receiptsOf(h, ws)).toEqual([{ organization_id: ws.organizationId, user_id: null, receipt: 'YWJj' }]);
  });

  it('POST /receipt accepts a receipt at the length bound', async () => {
    const ws = await h.workspace();
    const receipt = 'A'.repeat(524_288);
    const res = await as(h, ws).post('/api/receipt', { receiptBase64: receipt });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect((await receiptsOf(h, ws)).map((row) => row.receipt.length)).toEqual([524_288]);
  });

  it('the OpenAPI document lists the five billing operations with their schemas', async () => {
    const doc = (await h.call('GET', '/api/openapi.json')).body;
    const operationIds = [
      doc.paths['/subscriptions'].get.operationId,
      doc.paths['/subscriptions/{subscriptionId}'].put.operationId,
      doc.paths['/checkout'].post.operationId,
      doc.paths['/billing-history'].get.operationId,
      doc.paths['/receipt'].post.operationId,
    ];
    expect(operationIds).toEqual([
      'listSubscriptions',
      'updateSubscription',
      'createCheckout',
      'listBillingHistory',
      'postReceipt',
    ]);
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['Subscription', 'BillingTransaction', 'CheckoutLink']),
    );
    expect(doc.paths['/checkout'].post.description).toContain('/billing/checkout?workspace=');
  });
});
