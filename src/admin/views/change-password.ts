import { h } from '../dom.js';
import { Form } from '../forms.js';
import type { View } from '../view.js';

/**
 * The password change (`POST /v1/session/password`): required after a first sign-in with the
 * one-time password the owner was given (the API allows nothing else until then). The new
 * password is typed twice; the API judges it (12 to 200 characters, not the current one).
 */
export const changePasswordView: View = async (context) => {
  context.heading('Choose your password');
  const form = new Form({
    label: 'Change your password',
    submitLabel: 'Change password',
    fields: [
      { name: 'currentPassword', label: 'Current password', type: 'password', autocomplete: 'current-password', hint: 'The one-time password you were given.' },
      {
        name: 'newPassword',
        label: 'New password',
        type: 'password',
        autocomplete: 'new-password',
        hint: '12 to 200 characters. A passphrase of a few words is long and easy to remember.',
      },
      { name: 'repeatPassword', label: 'New password again', type: 'password', autocomplete: 'new-password' },
    ],
    onSubmit: async (form) => {
      const currentPassword = form.control('currentPassword').value;
      const newPassword = form.control('newPassword').value;
      if (currentPassword === '') return form.showFieldError('currentPassword', 'is required');
      if (newPassword === '') return form.showFieldError('newPassword', 'is required');
      if (form.control('repeatPassword').value !== newPassword) return form.showFieldError('repeatPassword', 'differs from the new password');
      await context.api.session.changePassword({ currentPassword, newPassword });
      for (const name of ['currentPassword', 'newPassword', 'repeatPassword']) form.setValue(name, '');
      context.announce('Password changed');
      const member = context.member;
      if (member !== undefined) context.signedIn({ ...member, mustChangePassword: false });
    },
  });
  context.main.append(
    h(
      'p',
      {},
      `Welcome${context.member === undefined ? '' : `, ${context.member.name}`}. Before anything else, replace the one-time password you signed in with by one only you know.`,
    ),
    form.element,
  );
  form.control('currentPassword').focus();
};
