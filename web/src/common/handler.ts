/**
 * An async action as an element's event handler. React ignores what a handler returns, so a rejected promise
 * would be lost without a word: the actions report their own failures (a notification, an alert), and what
 * still escapes one, a defect, is logged here instead of becoming an unhandled rejection. The action starts at
 * once, in the event (a form's `preventDefault` must be called there).
 */
export function handler<A extends unknown[]>(
  action: (...args: A) => Promise<unknown> | void,
): (...args: A) => void {
  return (...args) => {
    action(...args)?.catch((error: unknown) => console.error(error));
  };
}
