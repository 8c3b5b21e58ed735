"""Actions on the chat page, as a person at the keyboard would take them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from selenium.common.exceptions import (
    NoSuchElementException,
    StaleElementReferenceException,
    WebDriverException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

from ..support import Api

T = TypeVar("T")
TIMEOUT = 15
NAVIGATING = (StaleElementReferenceException, NoSuchElementException, WebDriverException)
"""What Chromium may answer while a page is being replaced; a wait simply asks again."""


def wait_until(driver: WebDriver, condition: Callable[[WebDriver], T]) -> T:
    return WebDriverWait(driver, TIMEOUT, ignored_exceptions=NAVIGATING).until(condition)


def order_of(driver: WebDriver, field_id: str | None = None) -> list[str]:
    scope = f'.field[data-field-id="{field_id}"] ' if field_id else ""
    return [
        str(li.get_attribute("data-option-id"))
        for li in driver.find_elements(By.CSS_SELECTOR, scope + ".order-item")
    ]


def is_connected(driver: WebDriver) -> bool:
    body = driver.find_element(By.TAG_NAME, "body")
    return body.get_attribute("data-live") == "true" and body.get_attribute("data-connection") == "open"


class ChatPage:
    def __init__(self, driver: WebDriver, base_url: str) -> None:
        self.driver = driver
        self.base_url = base_url

    def start_session(self) -> str:
        self.driver.get(self.base_url + "/")
        self.driver.find_element(By.CSS_SELECTOR, ".new-session button[type=submit]").click()
        self.wait_connected()
        return str(self.driver.find_element(By.TAG_NAME, "body").get_attribute("data-session-id"))

    def open(self, session_id: str) -> None:
        self.driver.get(f"{self.base_url}/sessions/{session_id}")
        self.wait_connected()

    def wait_connected(self) -> None:
        """The page's script has its controls and its socket is open, so pushes arrive."""
        wait_until(self.driver, is_connected)

    def pause_agent(self, api: Api, session_id: str) -> None:
        """Pause the agent and wait until the page shows it: the queue bar that appears moves the
        dock, so a click aimed before it appears could land where the button no longer is."""
        api.pause(session_id)
        wait_until(
            self.driver,
            lambda d: (
                d.find_element(By.CSS_SELECTOR, "#queue input[name=paused]").get_attribute("value") == "false"
            ),
        )

    def say(self, text: str) -> None:
        composer = self.driver.find_element(By.ID, "composer-text")
        composer.send_keys(text)
        composer.send_keys(Keys.ENTER)

    def dock(self) -> WebElement:
        return WebDriverWait(self.driver, TIMEOUT).until(
            ec.visibility_of_element_located((By.ID, "task-surface-dock"))
        )

    def wait_dock_gone(self) -> None:
        WebDriverWait(self.driver, TIMEOUT).until(
            ec.invisibility_of_element_located((By.ID, "task-surface-dock"))
        )

    def field(self, field_id: str) -> WebElement:
        return self.driver.find_element(
            By.CSS_SELECTOR, f'#task-surface-dock .field[data-field-id="{field_id}"]'
        )

    def user_bubbles(self) -> list[str]:
        return [e.text for e in self.driver.find_elements(By.CSS_SELECTOR, ".event-user-message .plain-text")]

    def agent_bubbles(self) -> list[str]:
        return [e.text for e in self.driver.find_elements(By.CSS_SELECTOR, ".bubble-agent")]

    def wait_for_agent_text(self, fragment: str) -> None:
        WebDriverWait(self.driver, TIMEOUT).until(lambda d: any(fragment in t for t in self.agent_bubbles()))


def api_for(driver: WebDriver, base_url: str) -> Api:
    """An API client that acts as the person at this browser: it carries the browser's identity cookie."""
    api = Api(base_url)
    for cookie in driver.get_cookies():
        api.http.cookies.set(cookie["name"], cookie["value"])
    return api


def browse_as(driver: WebDriver, api: Api) -> None:
    """Let the browser act as this API client, e.g. for a session the client set up."""
    driver.get(api.base + "/static/css/app.css")  # any page of the origin, so the cookie can be set
    for cookie in api.http.cookies:
        driver.add_cookie({"name": cookie.name, "value": cookie.value or "", "path": "/"})


def owned_panel(driver: WebDriver, base_url: str, demo: str) -> tuple[Api, str]:
    """A session set up over the API with a demo panel open, this browser its owner; its page is
    not opened yet (so a test can prepare the browser first)."""
    api = Api(base_url)
    session_id = api.create_session()
    api.show_surface(session_id, demo)
    browse_as(driver, api)
    return api, session_id


def open_panel(driver: WebDriver, base_url: str, demo: str) -> tuple[Api, str, ChatPage]:
    """A session set up over the API with a demo panel open, shown in this browser as its owner."""
    api, session_id = owned_panel(driver, base_url, demo)
    page = ChatPage(driver, base_url)
    page.open(session_id)
    page.dock()
    return api, session_id, page
