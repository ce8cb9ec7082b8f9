# guest.sh CYCLES - load and unload kpcycle.ko CYCLES times while two
# readers run through vfs_read (a byte per call); prints the cycles that
# completed.
n=$1 i=0
dd if=/dev/zero of=/dev/null bs=1 2>/dev/null &
r1=$!
dd if=/dev/zero of=/dev/null bs=1 2>/dev/null &
r2=$!
while [ $i -lt "$n" ]; do
	insmod kpcycle.ko || break
	sleep 0.05
	rmmod kpcycle || break
	i=$((i + 1))
done
kill $r1 $r2
echo "cycles: $i"
