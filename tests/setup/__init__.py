"""Tests of the set-up steps (`make setup`, .ci/): the environment the suite runs in."""
