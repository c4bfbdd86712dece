# TT_REQUIRE(VAR, PKG-CONFIG-NAME, DEBIAN-PACKAGE)
# A required library found through pkg-config; its absence stops configure
# with the Debian package that provides it.
AC_DEFUN([TT_REQUIRE], [
	PKG_CHECK_MODULES([$1], [$2], [],
		[AC_MSG_ERROR([$2 not found; on Debian: apt-get install $3 (or run scripts/run)])])
])
