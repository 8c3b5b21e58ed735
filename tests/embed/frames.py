"""Driving the chat inside a host page's frame."""

from __future__ import annotations

from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from ..browser.pages import ChatPage, wait_until


def enter_chat(driver: WebDriver, selector: str = "#chat iframe") -> None:
    """Switch into the chat's frame once the app has drawn its page in it."""
    driver.switch_to.default_content()
    frame = wait_until(driver, lambda d: d.find_element(By.CSS_SELECTOR, selector))
    driver.switch_to.frame(frame)
    wait_until(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".topbar"))


def received(driver: WebDriver) -> list[dict[str, Any]]:
    """The events the host page got from the chat, in order."""
    driver.switch_to.default_content()
    found: list[dict[str, Any]] = driver.execute_script("return window.received || []")
    return found


def start_session_in_frame(driver: WebDriver, app_url: str) -> str:
    driver.find_element(By.CSS_SELECTOR, ".new-session button[type=submit]").click()
    page = ChatPage(driver, app_url)
    page.wait_connected()
    return str(driver.find_element(By.TAG_NAME, "body").get_attribute("data-session-id"))
