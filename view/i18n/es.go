package i18n

var spanish = [numMsgs]string{}
