/** What a long-running command (serve, worker) stops on a signal. */
export interface Stoppable {
  stop(): Promise<void>;
}

/** Stops on the first SIGTERM or SIGINT; a second one exits at once. */
export function stopOnSignals(server: Stoppable): void {
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) process.exit(1);
    signalled = true;
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`error during shutdown after ${signal}: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
