"""Build of the sgfstream extension (sgfstream._core).

The extension is compiled from every python/src/*.c and links the C
library, libsgfstream, as a shared library (one copy of the library in
the process, the same one the `sgf` tool uses; its soname carries the ABI):

* installed library (the default): the flags come from
  `pkg-config --cflags --libs sgfstream` (PKG_CONFIG_PATH as usual);
* a build tree of this checkout: SGFSTREAM_BUILD_DIR=/path/to/_build
  takes the headers from the source tree and the build tree and links
  _build/lib/.libs/libsgfstream.so with an rpath to it. `make check`
  (python/run-tests.sh) builds this way, so that the tests exercise the
  library just built, not an installed one.

A second extension, sgfstream._archive (src/archive.c and
src/readinto.c: zstd, lz4, 7z, rar and the other formats the standard
library cannot read, as the sgf tool reads them, imported only when an
input needs it), links libarchive; it is built when `pkg-config
libarchive` finds it, in both cases above. Without it (or with
SGFSTREAM_NO_LIBARCHIVE=1) sgfstream._core builds all the same and those
inputs raise SGFError saying why.

CFLAGS and LDFLAGS from the environment are added by setuptools (the
sanitizer build passes its -fsanitize flags that way).
"""

import glob
import os
import shlex
import subprocess
import sys

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))


def pkg_config(name):
    """pkg-config's --cflags and --libs for name, or None."""
    try:
        cflags = subprocess.check_output(["pkg-config", "--cflags", name], text=True,
                                         stderr=subprocess.DEVNULL)
        libs = subprocess.check_output(["pkg-config", "--libs", name], text=True,
                                       stderr=subprocess.DEVNULL)
    except (OSError, subprocess.CalledProcessError):
        return None
    return cflags, libs


def add_flags(flags, cflags, libs):
    """Adds pkg-config's output to flags (a dict of lists)."""
    for f in shlex.split(cflags):
        if f.startswith("-I"):
            flags["include_dirs"].append(f[2:])
        else:
            flags["extra_compile_args"].append(f)
    for f in shlex.split(libs):
        if f.startswith("-L"):
            flags["library_dirs"].append(f[2:])
            # A prefix outside the loader's path (/usr/local/lib is in it
            # on Debian; a $HOME prefix is not): keep it found at run time.
            flags["runtime_library_dirs"].append(f[2:])
        elif f.startswith("-l"):
            flags["libraries"].append(f[2:])


def libarchive_flags():
    """The flags of libarchive for sgfstream._archive, or None."""
    if os.environ.get("SGFSTREAM_NO_LIBARCHIVE", "") not in ("", "0"):
        return None
    found = pkg_config("libarchive")
    if found is None:
        print("sgfstream: libarchive not found by pkg-config: zstd, lz4, 7z, rar... "
              "inputs will raise SGFError (install libarchive-dev)", file=sys.stderr)
        return None
    flags = dict(include_dirs=[], library_dirs=[], runtime_library_dirs=[],
                 libraries=[], extra_compile_args=[])
    add_flags(flags, *found)
    return flags


def library_flags():
    """Include dirs, library dirs, rpaths, libraries and extra flags."""
    build = os.environ.get("SGFSTREAM_BUILD_DIR")
    if build:
        build = os.path.abspath(build)
        top = os.path.dirname(HERE)
        libdir = os.path.join(build, "lib", ".libs")
        flags = dict(
            include_dirs=[os.path.join(build, "include"), os.path.join(top, "include")],
            library_dirs=[libdir],
            runtime_library_dirs=[libdir],
            libraries=["sgfstream"],
        )
        return flags
    found = pkg_config("sgfstream")
    if found is None:
        sys.exit(
            "sgfstream: libsgfstream not found by pkg-config.\n"
            "Install the C library first (./configure && make && sudo make install),\n"
            "set PKG_CONFIG_PATH to its lib/pkgconfig, or build against a build tree\n"
            "with SGFSTREAM_BUILD_DIR=/path/to/_build."
        )
    flags = dict(include_dirs=[], library_dirs=[], runtime_library_dirs=[],
                 libraries=[], extra_compile_args=[])
    add_flags(flags, *found)
    return flags


# Paths relative to this folder, as setuptools wants them: run setup.py
# (or pip) from here.
os.chdir(HERE)
ARCHIVE = [os.path.join("src", "archive.c"), os.path.join("src", "readinto.c")]
sources = sorted(p for p in glob.glob(os.path.join("src", "*.c")) if p != ARCHIVE[0])
warnings = ["-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter",
            "-Wno-missing-field-initializers"]
flags = library_flags()
extra = flags.pop("extra_compile_args", [])
ext = Extension(
    "sgfstream._core",
    sources=sources,
    depends=[os.path.join("src", "sgfpy.h")],
    extra_compile_args=warnings + extra,
    **flags,
)
exts = [ext]
aflags = libarchive_flags()
if aflags is not None:
    aextra = aflags.pop("extra_compile_args")
    # sgfpy.h includes <sgfstream.h>: the library's include dirs too
    aflags["include_dirs"] = flags["include_dirs"] + aflags["include_dirs"]
    exts.append(Extension(
        "sgfstream._archive",
        sources=ARCHIVE,
        depends=[os.path.join("src", "sgfpy.h")],
        extra_compile_args=warnings + extra + aextra,
        **aflags,
    ))

# The packages: sgfstream and its subpackages (sgfstream.sgfmill).
packages = sorted(
    os.path.dirname(p).replace(os.sep, ".")
    for p in glob.glob(os.path.join("sgfstream", "**", "__init__.py"), recursive=True)
)
setup(ext_modules=exts, packages=packages)
