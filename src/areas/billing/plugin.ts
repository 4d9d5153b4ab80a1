import type { Area } from '../area.js';
import { billingRoutes } from './routes.js';
import { BillingTransaction, CheckoutLink, Subscription } from './schemas.js';

export const billingArea: Area = {
  name: 'billing',
  routes: billingRoutes,
  schemas: [Subscription, BillingTransaction, CheckoutLink],
};
