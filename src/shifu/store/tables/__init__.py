"""Table modules, one per area; importing this package registers them all on `Base.metadata`."""

from importlib import import_module
from pkgutil import iter_modules

for _module in iter_modules(__path__):
    import_module(f"{__name__}.{_module.name}")
