"""A real headless Chromium driven by Selenium, against the live server."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def chromium_options(profile: Path, width: int = 1280, height: int = 1000) -> Options:
    options = Options()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
        f"--window-size={width},{height}",
        f"--user-data-dir={profile}",
        "--lang=en-US",
    ):
        options.add_argument(argument)
    return options


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[webdriver.Chrome]:
    if not Path(CHROMIUM).exists() or not Path(CHROMEDRIVER).exists():
        pytest.fail("Chromium and its driver are needed: the README's test command installs them")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=chromium_options(tmp_path / "profile"))
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()
