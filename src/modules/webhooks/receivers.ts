/**
 * The ports of the webhook service to the outside world; `src/webhooks/` implements them
 * over DNS and HTTP, tests replace them.
 */
export interface ReceiverPolicy {
  /**
   * Why events may not be sent to `url` (scheme, or an address its host resolves to), or
   * undefined when they may.
   */
  refusal(url: string): Promise<string | undefined>;
}

export interface ReceiverHandshake {
  /**
   * Sends `{"timestamp","verificationToken"}`, signed like an event, and answers whether the
   * receiver answered 200 with `{"verificationToken"}` echoing it, within the time limit.
   */
  verify(url: string, secret: string): Promise<boolean>;
}
