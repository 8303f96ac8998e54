#!/bin/sh
# with_vulkan_validation.sh SUITE -- runs a Vulkan conformance suite with the
# Khronos validation layer on, and fails when the layer reports an error
# (it writes "Validation Error: [ VUID-... ]" lines to standard output
# when no debug messenger is installed). Exit 77 (skipped) when the layer
# is not installed.
set -u
found=""
for dir in /usr/share/vulkan/explicit_layer.d /usr/local/share/vulkan/explicit_layer.d \
    /etc/vulkan/explicit_layer.d; do
    [ -f "$dir/VkLayer_khronos_validation.json" ] && found=$dir
done
if [ -z "$found" ]; then
    echo "SKIPPED: the Khronos validation layer is not installed (Debian: vulkan-validationlayers)"
    exit 77
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "$@" >"$out" 2>&1
rc=$?
cat "$out"
if grep -q "Validation Error\|VUID-" "$out"; then
    echo "FAIL: the Khronos validation layer reported errors (above)"
    exit 1
fi
echo "validation layer ($found): no errors reported"
exit $rc
