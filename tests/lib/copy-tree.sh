# Sourced by test scripts.  copy_tree SRC DST: copies the source tree SRC into the existing
# directory DST without the git metadata or any build product, so a build there starts clean.
copy_tree() {
	tar -C "$1" --exclude=.git --exclude='*.o' --exclude='*.a' --exclude='*.d' --exclude=tests/bin \
		--exclude=./interbench --exclude=./interbench-static --exclude=./.version -cf - . |
		tar -C "$2" -xf -
}
