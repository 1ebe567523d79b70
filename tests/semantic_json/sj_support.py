"""Shared texts and helpers for the semantic_json tests (imported as a module, not a conftest, so that it
cannot collide with another directory's conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]

QUICKSTART_TEXT = """
B기업은 현재까지 원리금을 정상적으로 상환하고 있다.
다만 주요 거래계약이 내년에 만료될 예정이며,
중장기적으로 현재의 상환능력이 유지된다고 단정하기는 어렵다.
"""

#: B's paragraph between paragraphs about A and C (Korean).
KOREAN_NEIGHBOURS_TEXT = """# 신용 분석

A기업은 최근 매출이 감소하였으며 차입금 상환에 어려움을 겪고 있다. A기업의 중장기 채무상환능력은 취약하다.

B기업은 현재까지 원리금을 정상적으로 상환하고 있다.
다만 주요 거래계약이 내년에 만료될 예정이며,
중장기적으로 현재의 상환능력이 유지된다고 단정하기는 어렵다.
C기업은 상환능력이 우수하며 중장기 전망도 양호하다.
"""

ENGLISH_B = (
    "Company B has repaid principal and interest on schedule. However, its key supply contract expires next "
    "year, so it cannot be concluded that its repayment capacity will be maintained over the medium term."
)
#: The English B paragraph with a neighbour about Company A on each side, no blank lines between.
ENGLISH_NEIGHBOURS_TEXT = (
    "Company A reported weaker sales and missed a loan repayment in March. "
    "Company A's medium-term repayment capacity is weak.\n"
    + ENGLISH_B
    + "\nCompany A also plans to refinance its bonds, which weakens its repayment capacity further.\n"
)


def run_python(code: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run `code` in a fresh interpreter that imports this checkout; raises if it fails."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(PROJECT_ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONHASHSEED"] = "random"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=timeout)
    if done.returncode != 0:
        raise AssertionError(f"subprocess failed ({done.returncode}):\n{done.stderr}")
    return done
