import type { Command } from 'commander';
import { STAFF_ROLES } from '../modules/staff/roles.js';
import { addConfigFlags, DATABASE_FLAGS, LIST_PAGE, parseId, parseRole, withServices, writeJsonLines } from './cli-options.js';

/** `pricebook staff …`: staff accounts of a store (docs/staff.md). */
export function registerStaffCommands(program: Command): void {
  const staff = program.command('staff').description("manage staff accounts (the admin page's sign-in)");
  addConfigFlags(
    staff
      .command('create')
      .description(
        'create a staff account; prints {"id","storeId","email","name","role","mustChangePassword","createdAt","initialPassword"}: a one-time password, shown only here, to be changed at the first sign-in',
      )
      .requiredOption('--store <id>', 'store id')
      .requiredOption('--email <email>', 'the sign-in e-mail; one account per e-mail on the whole server')
      .requiredOption('--name <name>', 'display name (1-100 characters), shown as who changed what')
      .requiredOption('--role <role>', `one of ${STAFF_ROLES.join(', ')}`),
    DATABASE_FLAGS,
  ).action((options: Record<string, string | undefined> & { store: string; email: string; name: string; role: string }) =>
    withServices(options, async (services) => {
      const storeId = parseId(options.store, '--store');
      const role = parseRole(options.role);
      const account = await services.staff.create(storeId, { email: options.email, name: options.name, role });
      return {
        id: account.id,
        storeId: account.storeId,
        email: account.email,
        name: account.name,
        role: account.role,
        mustChangePassword: account.mustChangePassword,
        createdAt: account.createdAt,
        initialPassword: account.initialPassword,
      };
    }),
  );
  addConfigFlags(
    staff
      .command('list')
      .description(
        'list a store\'s staff accounts, one JSON object {"id","storeId","email","name","role","mustChangePassword","createdAt","disabledAt"} a line, by id',
      )
      .requiredOption('--store <id>', 'store id'),
    DATABASE_FLAGS,
  ).action((options: Record<string, string | undefined> & { store: string }) =>
    withServices(options, (services) => {
      const storeId = parseId(options.store, '--store');
      return writeJsonLines((afterId) => services.staff.accountsOfStore(storeId, afterId, LIST_PAGE));
    }),
  );
  addConfigFlags(
    staff
      .command('disable')
      .description('disable a staff account and end all its sessions at once; prints {"id","email","disabled"}')
      .argument('<id-or-email>', "the account's id or e-mail")
      .requiredOption('--store <id>', 'store id'),
    DATABASE_FLAGS,
  ).action((idOrEmail: string, options: Record<string, string | undefined> & { store: string }) =>
    withServices(options, async (services) => {
      const account = await services.staff.disable(parseId(options.store, '--store'), idOrEmail);
      return { id: account.id, email: account.email, disabled: true };
    }),
  );
  addConfigFlags(
    staff
      .command('reset')
      .description(
        'give a staff account a new one-time password (to be changed at the next sign-in) and end all its sessions; prints {"id","email","initialPassword"}',
      )
      .argument('<id-or-email>', "the account's id or e-mail")
      .requiredOption('--store <id>', 'store id'),
    DATABASE_FLAGS,
  ).action((idOrEmail: string, options: Record<string, string | undefined> & { store: string }) =>
    withServices(options, async (services) => {
      const account = await services.staff.reset(parseId(options.store, '--store'), idOrEmail);
      return { id: account.id, email: account.email, initialPassword: account.initialPassword };
    }),
  );
}
