"""Tests of sgfstream's streaming part: games(), headers(), Handler, Parser."""

import unittest

import sgfstream


class TestModule(unittest.TestCase):
    def test_import(self):
        self.assertTrue(sgfstream.LIBRARY_VERSION)
        self.assertTrue(issubclass(sgfstream.SGFError, ValueError))
        self.assertEqual(sgfstream.CONTINUE, 0)
        self.assertEqual(len({sgfstream.CONTINUE, sgfstream.SKIP, sgfstream.PAUSE, sgfstream.STOP}), 4)


if __name__ == "__main__":
    unittest.main()
