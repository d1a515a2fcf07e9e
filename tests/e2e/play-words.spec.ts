/**
 * Issue 28: the play view names a task by the one id the catalogue, the address and the
 * episodes use (the upstream name is a detail beside it), and a score shows its ceiling.
 */
import { expect, test } from '@playwright/test';

test('OS: the header and the page title say the catalogue id; the upstream name is a detail', async ({ page }) => {
  await page.goto('/#/play/os/os-test-4-Q19-00?seed=0');
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \//, { timeout: 20_000 });
  await expect(page.getByTestId('task-id')).toHaveText('os-test-4-Q19-00');
  await expect(page).toHaveTitle('os-test-4-Q19-00 · OS Interaction · agentplay');
  await expect(page.getByRole('heading', { level: 1 })).not.toContainText('std-004');
  await expect(page.getByText('upstream name std-004-Q19-00000')).toBeVisible();
});

test('Bandits and RPS show the score against its ceiling of one per step; Hanoi against its disks; OS against 1', async ({ page }) => {
  for (const [url, score] of [
    ['/#/play/bandits/bandits-highlow?seed=1', '0 / 50'],
    ['/#/play/rps/rps-basic?seed=1', '0 / 50'],
    ['/#/play/hanoi/hanoi-4', '0 / 4'],
    ['/#/play/os/os-dev-24?seed=1', '0 / 1'],
  ]) {
    await page.goto(url);
    await expect(page.getByTestId('step-count')).toHaveText(/^0 \//);
    await expect(page.getByTestId('score')).toHaveText(score);
  }
});
