import { PricebookError } from '@pricebook/client/browser';
import { ERROR_CODES } from '../../contract/error-codes.js';
import { h } from '../dom.js';
import { Form } from '../forms.js';
import type { View } from '../view.js';

/**
 * Sign-in with a staff account: e-mail and password, sent to `POST /v1/session`, which answers
 * the member and sets the session cookie (HttpOnly: the page never sees it). A wrong e-mail and
 * a wrong password get the server's one message; repeated failures are refused for a while
 * (429), and the form says how long.
 */
export const signInView: View = async (context) => {
  context.heading('Sign in');
  const form = new Form({
    label: 'Sign in',
    submitLabel: 'Sign in',
    fields: [
      { name: 'email', label: 'E-mail', type: 'email', inputmode: 'email', autocomplete: 'username' },
      { name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password' },
    ],
    onSubmit: async (form) => {
      const email = form.value('email');
      // The password as typed: spaces are characters of it.
      const password = form.control('password').value;
      if (email === '') return form.showFieldError('email', 'is required');
      if (password === '') return form.showFieldError('password', 'is required');
      let member;
      try {
        member = await context.signInApi.session.create({ email, password });
      } catch (error) {
        if (error instanceof PricebookError && (error.status === 429 || error.code === ERROR_CODES.rate_limited)) {
          const wait = error.retryAfterSeconds === undefined ? 'a while' : waitText(error.retryAfterSeconds);
          throw new Error(`Too many failed sign-ins: try again in ${wait}.`, { cause: error });
        }
        throw error;
      }
      form.setValue('password', '');
      // The header names the member: said to screen readers only.
      context.announce(`Signed in as ${member.name}`, 'quiet');
      context.signedIn(member);
    },
  });
  context.main.append(
    context.notice === undefined ? '' : h('p', { class: 'notice', role: 'status' }, context.notice),
    h(
      'p',
      {},
      'Sign in with your staff account. Everything this page does goes through the Pricebook API as you: your role decides what you may change, and the price history names you for each change.',
    ),
    form.element,
    h(
      'p',
      { class: 'hint' },
      'No account, or a forgotten password? The store’s owner creates accounts and gives new one-time passwords (pricebook staff create, pricebook staff reset).',
    ),
  );
  form.control('email').focus();
};

/** 75 → `1 min 15 s`. */
export function waitText(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  if (whole < 60) return `${whole} s`;
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}
