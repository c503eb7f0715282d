#!/usr/bin/env node
// Before the browser tests: say plainly how to get a browser when there is none, instead of
// letting Playwright fail with a download hint that cannot work on an offline machine.
import fs from 'node:fs';
import { chromium } from '@playwright/test';

// Debian's headless shell or its browser, as playwright.config.ts picks them.
const SYSTEM_CHROMIUM = '/usr/bin/chromium';
if (['/usr/bin/chromium-headless-shell', SYSTEM_CHROMIUM].some((file) => fs.existsSync(file))) process.exit(0);
let bundled = '';
try {
  bundled = chromium.executablePath();
} catch {
  bundled = '';
}
if (bundled && fs.existsSync(bundled)) process.exit(0);
console.error(`The end-to-end tests need Chromium, and none was found.
  Debian/Ubuntu: sudo apt-get install chromium-headless-shell   (or chromium, used from ${SYSTEM_CHROMIUM})
  elsewhere:     npx playwright install chromium`);
process.exit(1);
