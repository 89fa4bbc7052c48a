/**
 * What the dashboard's Chromium tests share: a headless Chromium at a phone's width (390 px) with a profile of its
 * own, the sign-in each test starts with, and a connected crm user for those that need one.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { Receiver } from '../../runtime/webhooks/receiver.js';
import { startHarness, type Harness, type HarnessOptions } from '../harness.js';

/** Connecting a sandbox user is the service tests' own set-up (harness.ts); the dashboard tests import it from here. */
export { connectSandboxUser, crmUser } from '../harness.js';

export const CHROMIUM = '/usr/bin/chromium';
/**
 * Whether the browser tests run: where Debian's Chromium is installed, and always when
 * AGENT_CONNECTOR_REQUIRE_CHROMIUM=1 (CI sets it after installing Chromium), so a missing browser fails them there
 * instead of skipping them.
 */
export const BROWSER_TESTS = existsSync(CHROMIUM) || process.env.AGENT_CONNECTOR_REQUIRE_CHROMIUM === '1';

export interface DashboardBrowser {
  context: BrowserContext;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

export async function launchDashboardBrowser(): Promise<DashboardBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'ac-chromium-'));
  const removeProfile = (): void => rmSync(profile, { recursive: true, force: true });
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 390, height: 844 },
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    return {
      context,
      close: async () => {
        await context.close();
        removeProfile();
      },
    };
  } catch (error) {
    removeProfile();
    throw error;
  }
}

/**
 * A dashboard suite's service harness and browser, started before its tests and closed after: `suite.h` is the
 * harness, `suite.newPage()` a page in the 390 px browser.
 */
export function dashboardSuite(options: HarnessOptions = {}): { readonly h: Harness; newPage(): Promise<Page> } {
  let harness: Harness | undefined;
  let browser: DashboardBrowser | undefined;
  beforeAll(async () => {
    harness = await startHarness(options);
    browser = await launchDashboardBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });
  return {
    get h(): Harness {
      if (!harness) throw new Error('the dashboard suite has not started');
      return harness;
    },
    newPage: () => browser!.context.newPage(),
  };
}

/**
 * A webhook receiver (test/runtime/webhooks/receiver.ts) for the file's endpoints: listening from before its tests
 * (and before the file's own `beforeAll` hooks declared after this call) until after them.
 */
export function suiteReceiver(): Receiver {
  const receiver = new Receiver();
  beforeAll(async () => {
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
  });
  return receiver;
}

/** Signs in to the dashboard as environment A's application. */
export async function signIn(page: Page, h: Harness): Promise<void> {
  await page.goto(`${h.url}/dashboard/login`);
  await page.fill('#client_id', h.a.clientId);
  await page.fill('#client_secret', h.a.clientSecret);
  await page.click('button[type=submit]');
  await page.waitForURL(`${h.url}/dashboard`);
}

