// What the link pages use of two-factor sign-in: the second step.
export { verifySecondFactor } from './two-factor-service.js';
