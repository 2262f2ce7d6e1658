import { type Pricebook, PricebookError, type StaffMember } from '@pricebook/client/browser';
import { adminClient } from './admin-client.js';
import { h, replaceChildren } from './dom.js';
import { errorMessage } from './error-message.js';
import { isAbort } from './forms.js';
import { currency, setCurrency } from './money.js';
import { approvalRequired, canChange, canChangePrices, FORMER_TOKEN_KEY, setApprovalRequired, setSignedInMember, signedInMember } from './session.js';
import { type OutcomeKind, toast as toastBox } from './toast.js';
import type { View, ViewContext } from './view.js';
import { changePasswordView } from './views/change-password.js';
import { customerView } from './views/customer.js';
import { customerGroupsView, customerGroupView } from './views/customer-groups.js';
import { customersView } from './views/customers.js';
import { importsView } from './views/imports.js';
import { changeSetsView, changeSetView } from './views/change-sets.js';
import { orderView, ordersView } from './views/orders.js';
import { priceListView } from './views/price-list.js';
import { priceListsView } from './views/price-lists.js';
import { productView, productsView } from './views/products.js';
import { signInView } from './views/sign-in.js';
import { webhooksView } from './views/webhooks.js';

interface Route {
  pattern: RegExp;
  view: View;
  /** The main-menu entry marked current. */
  nav?: string;
  /** Shown when signed out (only the sign-in). */
  signedOut?: boolean;
  /** Shown while the member must change a one-time password first (only the change itself). */
  passwordChange?: boolean;
}

/** Hash routes: the page is one file, and a record id in the hash never leaves the browser. */
const ROUTES: readonly Route[] = [
  { pattern: /^#\/sign-in$/, view: signInView, signedOut: true },
  { pattern: /^#\/password$/, view: changePasswordView, passwordChange: true },
  { pattern: /^#\/customers$/, view: customersView, nav: 'customers' },
  { pattern: /^#\/customers\/([1-9]\d*)$/, view: customerView, nav: 'customers' },
  { pattern: /^#\/price-lists$/, view: priceListsView, nav: 'price-lists' },
  { pattern: /^#\/price-lists\/([1-9]\d*)$/, view: priceListView, nav: 'price-lists' },
  { pattern: /^#\/customer-groups$/, view: customerGroupsView, nav: 'customer-groups' },
  { pattern: /^#\/customer-groups\/([1-9]\d*)$/, view: customerGroupView, nav: 'customer-groups' },
  { pattern: /^#\/products$/, view: productsView, nav: 'products' },
  { pattern: /^#\/products\/([1-9]\d*)$/, view: productView, nav: 'products' },
  { pattern: /^#\/orders$/, view: ordersView, nav: 'orders' },
  { pattern: /^#\/orders\/([1-9]\d*)$/, view: orderView, nav: 'orders' },
  { pattern: /^#\/change-sets$/, view: changeSetsView, nav: 'change-sets' },
  { pattern: /^#\/change-sets\/([1-9]\d*)$/, view: changeSetView, nav: 'change-sets' },
  { pattern: /^#\/imports$/, view: importsView, nav: 'imports' },
  { pattern: /^#\/webhooks$/, view: webhooksView, nav: 'webhooks' },
];
const HOME = '#/customers';
const SIGN_IN = '#/sign-in';
const PASSWORD = '#/password';
const SESSION_ENDED = 'Your session ended (signed out elsewhere, unused for too long, or the account was disabled). Sign in again.';

const main = element('main');
const nav = element('nav');
const who = element('signed-in-as');
const wait = element('wait');
const announcer = element('announcer');
const toast = toastBox(element('toast'), element('toast-text'), element('toast-close'));
let current: AbortController | undefined;
/** Where to go once signed in (the page asked for before signing in). */
let afterSignIn = HOME;
/** Said once the sign-in form shows (why the user is there). */
let signInMessage: string | undefined;
/** Whether the server was asked for the session since the page loaded (the cookie is not readable here). */
let sessionAsked = false;

// An earlier version of the page kept an API token in this tab's sessionStorage: none is kept now.
sessionStorage.removeItem(FORMER_TOKEN_KEY);

function showRateLimitWait(seconds: number): void {
  wait.hidden = seconds === 0;
  replaceChildren(wait, seconds === 0 ? '' : `The API's rate limit asks for a pause of ${seconds} s: the action goes on by itself.`);
}

/** Forgets the member and shows the sign-in form (the session itself is over, or being ended). */
function signOut(message?: string): void {
  // A session that ended under a page comes back to that page once signed in again.
  if (message !== undefined && location.hash !== SIGN_IN && location.hash !== PASSWORD && location.hash !== '') afterSignIn = location.hash;
  setSignedInMember(undefined);
  setCurrency(undefined);
  setApprovalRequired(false);
  sessionAsked = true;
  signInMessage = message;
  if (location.hash === SIGN_IN) void render();
  else location.hash = SIGN_IN;
}

/** The outcome of an action: to screen readers, and on screen (`toast.ts`) unless `quiet` (the page itself shows it). */
function announce(message: string, kind: OutcomeKind = 'success'): void {
  replaceChildren(announcer, message);
  if (kind !== 'quiet') toast.show(message, kind === 'failure');
}

/** The member of the session the browser's cookie names, asked once per page load; undefined when signed out. */
async function sessionMember(signal: AbortSignal): Promise<StaffMember | undefined> {
  if (sessionAsked) return signedInMember();
  try {
    setSignedInMember(await adminClient({ signal, onRateLimitWait: showRateLimitWait }).session.get());
  } catch (error) {
    if (!(error instanceof PricebookError && error.status === 401)) throw error;
    setSignedInMember(undefined);
  }
  sessionAsked = true;
  return signedInMember();
}

async function render(): Promise<void> {
  current?.abort();
  toast.viewChanged();
  const controller = new AbortController();
  current = controller;
  const hash = location.hash === '' ? HOME : location.hash;
  const route = ROUTES.find((candidate) => candidate.pattern.test(hash));
  let member: StaffMember | undefined;
  try {
    member = await sessionMember(controller.signal);
  } catch (error) {
    if (isAbort(error) || controller.signal.aborted) return;
    replaceChildren(main, h('div', { class: 'alert', role: 'alert' }, h('p', {}, `The page could not ask for your session: ${errorMessage(error)}`)));
    return;
  }
  if (controller.signal.aborted) return;
  if (member === undefined && route?.signedOut !== true) {
    if (route?.passwordChange !== true) afterSignIn = route === undefined ? HOME : hash;
    location.replace(SIGN_IN);
    return;
  }
  if (member !== undefined && member.mustChangePassword && route?.passwordChange !== true) {
    if (route?.signedOut !== true) afterSignIn = route === undefined ? HOME : hash;
    location.replace(PASSWORD);
    return;
  }
  if (member !== undefined && (route?.signedOut === true || (route?.passwordChange === true && !member.mustChangePassword))) {
    location.replace(afterSignIn);
    afterSignIn = HOME;
    return;
  }
  const fullySignedIn = member !== undefined && !member.mustChangePassword;
  // The store's currency, once a sign-in: every price the page shows is in it. And whether the
  // store requires approval: then prices change through change sets only.
  if (fullySignedIn && currency() === undefined) {
    const store = await adminClient({ signal: controller.signal, onRateLimitWait: showRateLimitWait, onUnauthenticated: () => signOut(SESSION_ENDED) })
      .store.get()
      .catch(() => undefined);
    if (controller.signal.aborted) return;
    setCurrency(store?.currency);
    setApprovalRequired(store?.requireApproval === true);
  }
  nav.hidden = member === undefined;
  for (const link of nav.querySelectorAll<HTMLElement>('ul')) link.hidden = !fullySignedIn;
  replaceChildren(who, member === undefined ? '' : `${member.name} (${member.role})`);
  for (const link of nav.querySelectorAll<HTMLAnchorElement>('a[data-nav]')) {
    if (link.dataset.nav === route?.nav) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  replaceChildren(main);
  // A client per view: moving on aborts its requests and waits.
  let api: Pricebook | undefined;
  let signInApi: Pricebook | undefined;
  const context: ViewContext = {
    get api() {
      api ??= adminClient({ signal: controller.signal, onRateLimitWait: showRateLimitWait, onUnauthenticated: () => signOut(SESSION_ENDED) });
      return api;
    },
    get signInApi() {
      signInApi ??= adminClient({ signal: controller.signal });
      return signInApi;
    },
    member,
    canChange: canChange(member),
    canChangePrices: canChangePrices(member),
    approvalRequired: approvalRequired(),
    signedIn: (signedIn) => {
      setSignedInMember(signedIn);
      sessionAsked = true;
      if (signedIn.mustChangePassword) location.hash = PASSWORD;
      else void render();
    },
    main,
    signal: controller.signal,
    heading: (text) => {
      const heading = h('h1', { tabindex: -1 }, text);
      main.prepend(heading);
      document.title = `${text} · Pricebook admin`;
      heading.focus();
      return heading;
    },
    announce,
    navigate: (target) => {
      // Where the action leads: its outcome shows there.
      if (location.hash !== target) toast.carryToNextView();
      location.hash = target;
    },
    signOut,
    notice: route?.signedOut === true ? signInMessage : undefined,
  };
  if (route?.signedOut === true) signInMessage = undefined;
  if (route === undefined) {
    context.heading('Page not found');
    main.append(h('p', {}, h('a', { href: HOME }, 'Go to the customers')));
    return;
  }
  const captures = route.pattern.exec(hash)?.slice(1) ?? [];
  // Busy until the view has its data in (assistive technology waits; so do the layout tests).
  main.setAttribute('aria-busy', 'true');
  try {
    await route.view(context, ...captures);
  } catch (error) {
    if (isAbort(error) || controller.signal.aborted) return;
    main.append(h('div', { class: 'alert', role: 'alert' }, h('p', {}, errorMessage(error))));
  } finally {
    if (!controller.signal.aborted) main.removeAttribute('aria-busy');
  }
}

// A phone's menu: one button shows and hides the links; moving to a page folds it again.
const menuToggle = element('menu-toggle');
const setMenuOpen = (open: boolean) => {
  nav.classList.toggle('open', open);
  menuToggle.setAttribute('aria-expanded', String(open));
};
menuToggle.addEventListener('click', () => setMenuOpen(!nav.classList.contains('open')));
window.addEventListener('hashchange', () => setMenuOpen(false));

const signOutButton = element('sign-out');
signOutButton.addEventListener('click', () => {
  if ((signOutButton as HTMLButtonElement).disabled) return;
  (signOutButton as HTMLButtonElement).disabled = true;
  // The session ends on the server (everywhere at once), then here. A 401: it had ended already.
  adminClient({ signal: new AbortController().signal, onRateLimitWait: showRateLimitWait })
    .session.delete()
    .then(
      () => {
        toast.carryToNextView();
        signOut();
        announce('Signed out');
      },
      (error: unknown) => {
        if (error instanceof PricebookError && error.status === 401) return signOut(SESSION_ENDED);
        main.prepend(h('div', { class: 'alert', role: 'alert' }, h('p', {}, `Not signed out: ${errorMessage(error)}`)));
      },
    )
    .finally(() => {
      (signOutButton as HTMLButtonElement).disabled = false;
    });
});
// The skip link must not become a route.
element('skip-link').addEventListener('click', (event) => {
  event.preventDefault();
  main.focus();
});
window.addEventListener('hashchange', () => void render());
void render();

function element(id: string): HTMLElement {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`index.html has no #${id}`);
  return found;
}
