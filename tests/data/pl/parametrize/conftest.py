# The tests of this folder build pl programs, so they run only where pypto is installed
# (under the oracle's Python, when tests/oracle records the corpus); passlint's own test
# run reads them as text and does not collect them.
import importlib.util

collect_ignore_glob = [] if importlib.util.find_spec("pypto") else ["test_*.py"]
