// No DOM here: the browser tests read it too.

/** How long a success stays on screen, in milliseconds; a failure stays until dismissed. */
export const SUCCESS_SHOWN_MS = 6000;
