"""Issue 24 on the Triangles page: the low-time clock clearly tinted in every look (13)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


def rgb(css: str) -> tuple[int, int, int]:
    r, g, b = (int(v) for v in re.findall(r"\d+", css)[:3])
    return r, g, b


def luminance(colour: tuple[int, int, int]) -> float:
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize(
    "cookies",
    [{}, {"tri_theme": "paper", "theme": "light"}, {"tri_theme": "paper", "theme": "dark"}],
)
def test_low_time_clock_is_clearly_red(
    desktop: Any, server_url: str, cookies: dict[str, str]
) -> None:
    desktop.add_cookies([{"name": k, "value": v, "url": server_url} for k, v in cookies.items()])
    page = desktop.new_page()
    page.goto("/play/triangles")
    expect(page.locator("#tri")).not_to_have_attribute("data-state", "loading")
    clock = page.locator(".tri-player__clock").first
    page.evaluate(
        """() => { const c = document.querySelector('.tri-player__clock');
        c.hidden = false; c.textContent = '0:07'; c.classList.add('is-running', 'is-low'); }"""
    )
    background = rgb(clock.evaluate("(c) => getComputedStyle(c).backgroundColor"))
    text = rgb(clock.evaluate("(c) => getComputedStyle(c).color"))
    assert background[0] - max(background[1:]) >= 120, background  # red, not a faint wash
    assert contrast(background, text) >= 4.5, (background, text)
