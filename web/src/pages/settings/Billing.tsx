import { useSignal, useSignalEffect } from '@preact/signals';
import { api } from '../../api/client.js';

/** The billing helpers, shown for what they are: the service is free, nothing is ever charged. */
export function Billing() {
  const records = useSignal<{ subscriptions: number; payments: number } | null>(null);
  useSignalEffect(() => {
    void Promise.all([api.GET('/subscriptions'), api.GET('/billing-history')]).then(([subscriptions, history]) => {
      records.value = { subscriptions: subscriptions.data?.length ?? 0, payments: history.data?.length ?? 0 };
    });
  });
  return (
    <section class="card" aria-labelledby="billing-heading">
      <h2 id="billing-heading">Plan and billing</h2>
      <p>
        <strong>timetrack is free</strong>, for any number of people. There is no plan to choose, no seat to buy and no payment to make.
      </p>
      <p class="muted">
        The billing routes of the API exist only for clients that expect them; they charge nothing.
        {records.value && ` Subscriptions on record: ${records.value.subscriptions}; payments on record: ${records.value.payments}.`}
      </p>
    </section>
  );
}
