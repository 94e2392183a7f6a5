# SPDX-License-Identifier: MIT
"""Helpers shared by the swgpud tests (test_shared.py, test_one_gpu.py)."""
import time


def wait_for(cond, seconds):
    """Poll cond() every 50 ms for up to seconds; its last value."""
    end = time.time() + seconds
    while time.time() < end:
        if cond():
            return True
        time.sleep(0.05)
    return cond()
