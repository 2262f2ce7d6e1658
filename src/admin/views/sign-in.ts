import { PricebookError } from '@pricebook/client/browser';
import { h } from '../dom.js';
import { Form } from '../forms.js';
import { storeToken } from '../session.js';
import type { View } from '../view.js';

/**
 * Sign-in with an API token. The token is tried on the API first (a 401 is shown at the
 * field; a 403 means a token without `catalog:read`, still a token), then kept in this tab's
 * sessionStorage.
 */
export const signInView: View = async (context) => {
  context.heading('Sign in');
  const form = new Form({
    label: 'Sign in',
    submitLabel: 'Sign in',
    fields: [
      {
        name: 'token',
        label: 'API token',
        type: 'password',
        hint: 'The token printed by pricebook keys create (or on the first start). It stays in this browser tab only, and is forgotten when you sign out or close the tab.',
      },
    ],
    onSubmit: async (form) => {
      const token = form.value('token');
      if (token === '') return form.showFieldError('token', 'is required');
      try {
        await context.withToken(token).customers.list({ count: 1, fields: 'id' });
      } catch (error) {
        if (error instanceof PricebookError && error.status === 401) return form.showFieldError('token', 'the API does not accept this token (unknown, revoked or mistyped)');
        if (!(error instanceof PricebookError && error.status === 403)) throw error;
      }
      form.setValue('token', '');
      storeToken(token);
      context.announce('Signed in');
      context.navigate(context.afterSignIn);
    },
  });
  context.main.append(
    context.notice === undefined ? '' : h('p', { class: 'notice', role: 'status' }, context.notice),
    h('p', {}, 'Everything this page does goes through the Pricebook API with your token, so its scopes and rate limits apply.'),
    form.element,
  );
  form.control('token').focus();
};
