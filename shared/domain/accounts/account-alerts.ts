/**
 * What the hourly account check tells the owner of an Apple account in their private pool: a key Apple no
 * longer accepts (the account stops selling: `failing`), a certificate Apple revoked, one expiring within 30
 * days, a device class near its limit. Each alert is set on the account and sent as an `account.alert`
 * event in one transaction, once per appearance; an alert the check no longer finds is taken off (and a
 * failing account whose key works again sells again).
 */
import { accountAlertPart, clearAccountAlerts } from '../../db/repositories/account-repository';
import { transactWrite } from '../../db/transactions';
import { CERTIFICATE_NOTICE_DAYS, DEVICE_CLASSES, SLOTS_LOW_AT, type Account, type AccountAlert } from '../../records/account';
import { eventPart } from '../events/outbox';

function alertData(account: Account, alert: AccountAlert, state: Account['status']) {
  return {
    account_id: account.accountId,
    team_id: account.teamId,
    alert,
    state,
    certificate_expires_at: account.certificateExpiresAt,
    free_slots: account.free,
  };
}

/** Sets the alert and sends its event, unless it is already set; returns whether it was new. */
export async function raiseAlert(account: Account, alert: AccountAlert, status?: { from: Account['status']; to: Account['status'] }): Promise<boolean> {
  if (account.alerts.includes(alert) && !status) return false;
  const parts = [accountAlertPart(account.accountId, alert, status)];
  // Only a private account has an owner to tell; the operator watches the public pool with `account list`.
  if (account.pool === 'private') parts.push(eventPart('account.alert', { tenantId: account.tenantId, userId: account.ownerUserId }, alertData(account, alert, status?.to ?? account.status)));
  return (await transactWrite(parts)).ok;
}

/** The alerts about the certificate's date and the slots, as of `now`. */
export function dueAlerts(account: Account, now: number): AccountAlert[] {
  const due: AccountAlert[] = [];
  if (account.certificateExpiresAt > 0 && account.certificateExpiresAt - now <= CERTIFICATE_NOTICE_DAYS * 86_400) due.push('certificate_expiring');
  if (DEVICE_CLASSES.some((deviceClass) => account.free[deviceClass] <= SLOTS_LOW_AT)) due.push('slots_low');
  return due;
}

/** After a check Apple answered: the due alerts raised, the rest taken off; a failing account sells again. */
export async function settleAlerts(account: Account, now: number): Promise<AccountAlert[]> {
  const due = dueAlerts(account, now);
  const gone = account.alerts.filter((a) => !due.includes(a) && a !== 'certificate_revoked');
  if (gone.length || account.status === 'failing') await clearAccountAlerts(account, gone, account.status === 'failing' ? { from: 'failing', to: 'active' } : undefined);
  const raised: AccountAlert[] = [];
  for (const alert of due) if (!account.alerts.includes(alert) && (await raiseAlert(account, alert))) raised.push(alert);
  return raised;
}
