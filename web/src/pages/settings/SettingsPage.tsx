import '../manage/manage.css';
import { Address } from './Address.js';
import { Billing } from './Billing.js';
import { Export } from './Export.js';
import { General, Holidays, Rounding } from './General.js';
import { Import } from './Import.js';
import { Locking } from './Locking.js';
import { SignInPolicy } from './SignInPolicy.js';
import { Tags } from './Tags.js';

/**
 * Workspace settings (administrators): the organization, rounding, timesheet locking, holidays, the
 * tags, importing another tool's export (or another workspace's), exporting everything, the sign-in
 * policy, the address and deletion, and the billing helpers shown as what they are (free).
 */
export function SettingsPage() {
  return (
    <>
      <h1>Workspace settings</h1>
      <General />
      <Rounding />
      <Locking />
      <Holidays />
      <Tags />
      <Import />
      <Export />
      <SignInPolicy />
      <Address />
      <Billing />
    </>
  );
}
