/** A background loop (dispatcher, sweeps, timers); started and stopped by the service. */
export interface Worker {
  name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}
