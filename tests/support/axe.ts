import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * axe-core on the page as it is (or only inside `include`, a CSS selector): no violations, each
 * one listed by rule and the elements it found otherwise. `skip` names rules that do not apply to
 * what is shown (a page's landmarks for an e-mail's body, which a mail client shows inside its own
 * page).
 */
export async function expectNoAxeViolations(
  page: Page,
  opts: { include?: string; what?: string; skip?: string[] } = {},
): Promise<void> {
  const builder = new AxeBuilder({ page }).disableRules(opts.skip ?? []);
  const { violations } = await (opts.include ? builder.include(opts.include) : builder).analyze();
  expect(
    violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    opts.what === undefined ? undefined : `axe on ${opts.what}`,
  ).toEqual([]);
}
