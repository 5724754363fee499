"""An import-linter contract type that refuses any import cycle inside the packages it names.

Registered in ``pyproject.toml`` (``[tool.importlinter] contract_types``) as
``acyclic``; ``lint-imports`` (run by ``make test``) checks it with the others.
Import-linter's own ``acyclic_siblings`` contract compares the children of a
package with one another, so it does not see a module importing the package
that contains it (``pkg/__init__.py`` -> ``pkg/view.py`` -> ``pkg``); this one
looks at every module below each named package, the package modules themselves
included, and reports each group of modules that import one another in a ring
(a strongly connected component of the import graph), with the imports inside
it and their line numbers. Imports under ``if TYPE_CHECKING:`` and inside
functions count: a cycle hidden in a function is still a cycle.

Options: ``packages``, the dotted names whose modules may not import one another
in a ring (a cycle that leaves the package, e.g. through a module above it, is
reported by the contract that names that module's package).
"""

from __future__ import annotations

from collections.abc import Iterable

import grimp
from importlinter.application import output
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck


def import_cycles(graph: grimp.ImportGraph, modules: Iterable[str]) -> list[list[str]]:
    """The strongly connected components of ``graph`` restricted to ``modules``, with two or more modules each.

    Returns each component as a sorted list of module names, components sorted by
    their first module; an empty list when the modules import one another in no
    ring (Tarjan's algorithm, iterative).
    """
    inside = set(modules)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m) & inside) for m in inside}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in sorted(inside):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if i < len(edges[node]):
                work.append((node, i + 1))
                nxt = edges[node][i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return sorted(components)


class AcyclicContract(Contract):
    """No module below any of ``packages`` takes part in an import cycle with another module below it."""

    type_name = "acyclic"

    packages = fields.ListField(subfield=fields.StringField())

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        """Find the cycles; the metadata holds, per cycle, its modules and the imports between them."""
        cycles = []
        for package in self.packages:  # type: ignore[attr-defined]
            modules = {package} | graph.find_descendants(package)
            for component in import_cycles(graph, modules):
                members = set(component)
                imports = []
                for importer in component:
                    for imported in sorted(graph.find_modules_directly_imported_by(importer) & members):
                        lines = [str(d["line_number"]) for d in graph.get_import_details(
                            importer=importer, imported=imported)]
                        imports.append(f"{importer} -> {imported} (l.{', '.join(lines) or '?'})")
                cycles.append({"package": package, "modules": component, "imports": imports})
        return ContractCheck(kept=not cycles, metadata={"cycles": cycles})

    def render_broken_contract(self, check: ContractCheck) -> None:
        """Print each cycle: its modules, then every import that closes the ring."""
        for cycle in check.metadata["cycles"]:
            output.print_error(f"Import cycle in {cycle['package']}: {', '.join(cycle['modules'])}")
            for line in cycle["imports"]:
                output.print_error(f"-   {line}", bold=False)
            output.new_line()
