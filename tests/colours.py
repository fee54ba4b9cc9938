"""Colour arithmetic for the palette tests (tests/ui/test_ui_palettes.py): WCAG contrast, colour-blindness
simulated with Machado, Oliveira and Fernandes (2009), and the CIEDE2000 colour difference.

* ``contrast(a, b)``: the WCAG 2.x contrast ratio of two sRGB colours (1 to 21), from their relative luminance.
* ``over(colour, alpha, base)``: a translucent colour as seen over ``base`` (plotly's rgba bands, label boxes).
* ``simulate(colour, kind)``: the colour as a person with protanopia, deuteranopia or tritanopia sees it: Machado's
  matrices for severity 1.0 (the full dichromacy), applied to linear RGB, then clipped to the sRGB gamut.
* ``delta_e(a, b)``: CIEDE2000 (Sharma, Wu and Dalal 2005) between two sRGB colours, through CIE XYZ (D65) and CIELAB.

Plain Python, no numpy: a few hundred pairs are checked.
"""

from __future__ import annotations

import math
import re

__all__ = ["KINDS", "contrast", "delta_e", "delta_e_lab", "hex_rgb", "over", "simulate"]

# Machado et al. (2009), severity 1.0: protanopia, deuteranopia, tritanopia (rows: R', G', B' of linear R, G, B).
MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
KINDS = ("normal", *MACHADO)
NAMED = {"white": "#ffffff", "black": "#000000"}
Colour = str | tuple[float, float, float]


def hex_rgb(colour: Colour) -> tuple[float, float, float]:
    """``#rgb``, ``#rrggbb``, ``white``/``black`` or an (r, g, b) tuple of 0-255 as 0-255 floats."""
    if isinstance(colour, tuple):
        return colour
    text = NAMED.get(colour.strip().lower(), colour.strip())
    if not re.fullmatch(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})", text):
        raise ValueError(f"not a colour: {colour!r}")
    digits = text[1:]
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    return tuple(float(int(digits[i:i + 2], 16)) for i in (0, 2, 4))  # type: ignore[return-value]


def _linear(channel: float) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encoded(linear: float) -> float:
    linear = min(1.0, max(0.0, linear))
    c = linear * 12.92 if linear <= 0.0031308 else 1.055 * linear ** (1 / 2.4) - 0.055
    return c * 255


def luminance(colour: Colour) -> float:
    r, g, b = (_linear(c) for c in hex_rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Colour, b: Colour) -> float:
    """WCAG 2.x contrast ratio (1.4.3, 1.4.11)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def over(colour: Colour, alpha: float, base: Colour) -> tuple[float, float, float]:
    """``colour`` at opacity ``alpha`` over ``base`` (blended as browsers do, in encoded sRGB)."""
    top, under = hex_rgb(colour), hex_rgb(base)
    return tuple(alpha * t + (1 - alpha) * u for t, u in zip(top, under, strict=True))  # type: ignore[return-value]


def simulate(colour: Colour, kind: str) -> tuple[float, float, float]:
    """``colour`` as seen with ``kind`` ("normal", "protanopia", "deuteranopia", "tritanopia")."""
    rgb = hex_rgb(colour)
    if kind == "normal":
        return rgb
    linear = [_linear(c) for c in rgb]
    return tuple(_encoded(sum(m * c for m, c in zip(row, linear, strict=True)))  # type: ignore[return-value]
                 for row in MACHADO[kind])


def _lab(colour: Colour) -> tuple[float, float, float]:
    r, g, b = (_linear(c) for c in hex_rgb(colour))
    x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b
    white = (0.95047, 1.0, 1.08883)

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = (f(v / w) for v, w in zip((x, y, z), white, strict=True))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: Colour, b: Colour) -> float:
    """CIEDE2000 colour difference (kL = kC = kH = 1) of two sRGB colours."""
    return delta_e_lab(_lab(a), _lab(b))


def delta_e_lab(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """CIEDE2000 of two CIELAB colours (Sharma, Wu and Dalal's formulas; their test pairs in the palette test)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    c_mean = (c1 + c2) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    else:
        dh = h2p - h1p
        if dh > 180:
            dh -= 360
        elif dh < -180:
            dh += 360
    dhp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (dhp / s_h) ** 2 + r_t * (dc / s_c) * (dhp / s_h))
