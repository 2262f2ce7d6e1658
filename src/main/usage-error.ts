/** A malformed argument or setting: exit code 2, like commander's own usage errors and a bad configuration. */
export class UsageError extends Error {}
