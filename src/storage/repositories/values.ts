/** Booleans are 0/1 on both engines. */
export function toFlag(value: boolean): number {
  return value ? 1 : 0;
}

export function fromFlag(value: number): boolean {
  return Number(value) === 1;
}
